#!/usr/bin/env python3
"""Derives the shipped CDSi data files from the CDC's published CDSi material.

Reads (from a checkout or bare mirror of github.com/fhir-fli/cicada, which republishes the
CDC's files unchanged):
  cicada_generator/lib/Version_4.64-508/JSON/*.json   CDSi supporting data v4.64
  cicada_generator/lib/test_cases/cdsi-healthy-childhood-and-adult-test-cases-v4.45.xlsx

Writes:
  src/shared/vaccines/reference/us-cdc/antigens.json   the Standard series of the schedule's antigens
  src/shared/vaccines/reference/us-cdc/schedule.json   vaccine groups, CVX-to-antigen map, live virus conflicts
  src/shared/vaccines/reference/cvx.json               the CVX codes the schedule knows, with their names
  src/shared/vaccines/testing/cdsi-healthy-cases.json  the healthy test cases, compacted

Only data is copied, and only what the engine reads (contraindications, indications, risk
series, guidance text and the like are left out). Standard library only:
  python3 scripts/vaccines/derive-cdsi-data.py /work/.mirror/fhir-fli+cicada/repo
"""
import datetime, json, re, subprocess, sys, zipfile, io
import xml.etree.ElementTree as ET

MIRROR = sys.argv[1]
OUT = 'src/shared/vaccines'
DATA_DIR = 'cicada_generator/lib/Version_4.64-508/JSON'
WORKBOOK = 'cicada_generator/lib/test_cases/cdsi-healthy-childhood-and-adult-test-cases-v4.45.xlsx'
ANTIGENS = ['Diphtheria', 'Tetanus', 'Pertussis', 'HepB', 'Hib', 'Polio', 'Pneumococcal',
            'Rotavirus', 'Measles', 'Mumps', 'Rubella', 'Varicella', 'HepA', 'HPV',
            'Meningococcal', 'Meningococcal B', 'Influenza', 'COVID-19', 'Zoster', 'RSV']
FILES = {'Diphtheria': 'Diphtheria', 'Tetanus': 'Tetanus', 'Pertussis': 'Pertussis', 'HepB': 'HepB',
         'Hib': 'Hib', 'Polio': 'Polio', 'Pneumococcal': 'Pneumococcal', 'Rotavirus': 'Rotavirus',
         'Measles': 'Measles', 'Mumps': 'Mumps', 'Rubella': 'Rubella', 'Varicella': 'Varicella',
         'HepA': 'HepA', 'HPV': 'HPV', 'Meningococcal': 'Meningococcal',
         'Meningococcal B': 'Meningococcal B', 'Influenza': 'Influenza', 'COVID-19': 'COVID-19',
         'Zoster': 'Zoster', 'RSV': 'RSV'}
# The workbook's short vaccine-group names, as the supporting data names the groups.
GROUPS = {'DTAP': 'DTaP/Tdap/Td', 'HepB': 'HepB', 'HIB': 'Hib', 'POL': 'Polio',
          'PCV': 'Pneumococcal', 'ROTA': 'Rotavirus', 'MMR': 'MMR', 'VAR': 'Varicella',
          'HepA': 'HepA', 'HPV': 'HPV', 'MCV': 'Meningococcal', 'MENB': 'Meningococcal B',
          'FLU': 'Influenza', 'COVID-19': 'COVID-19', 'ZOSTER': 'Zoster', 'RSV': 'RSV'}


def git_show(path, binary=False):
    out = subprocess.run(['git', '--git-dir', MIRROR, 'show', 'HEAD:' + path],
                         check=True, capture_output=True).stdout
    return out if binary else out.decode('utf-8')


def pick(obj, keys):
    return {k: obj[k] for k in keys if k in obj and obj[k] not in (None, '', [])}


def compact_dose(dose):
    out = pick(dose, ['doseNumber', 'recurringDose', 'seasonalRecommendation'])
    out['age'] = [pick(a, ['absMinAge', 'minAge', 'earliestRecAge', 'latestRecAge', 'maxAge',
                           'effectiveDate', 'cessationDate']) for a in dose.get('age', [])]
    intervals = [pick(i, ['fromPrevious', 'fromTargetDose', 'fromMostRecent', 'absMinInt',
                          'minInt', 'earliestRecInt', 'latestRecInt', 'effectiveDate',
                          'cessationDate'])
                 for i in dose.get('interval', []) if 'fromRelevantObs' not in i]
    if intervals:
        out['interval'] = intervals
    if 'allowableInterval' in dose:
        out['allowableInterval'] = pick(dose['allowableInterval'],
                                        ['fromPrevious', 'fromTargetDose', 'absMinInt',
                                         'effectiveDate', 'cessationDate'])
    out['preferableVaccine'] = [pick(v, ['vaccineType', 'cvx', 'beginAge', 'endAge',
                                         'forecastVaccineType'])
                                for v in dose.get('preferableVaccine', [])]
    allowable = [pick(v, ['cvx', 'beginAge', 'endAge']) for v in dose.get('allowableVaccine', [])]
    if allowable:
        out['allowableVaccine'] = allowable
    inadvertent = [v['cvx'] for v in dose.get('inadvertentVaccine', [])]
    if inadvertent:
        out['inadvertentVaccine'] = inadvertent
    skips = []
    for skip in dose.get('conditionalSkip', []):
        sets = [{'conditionLogic': s.get('conditionLogic', 'AND'),
                 **pick(s, ['effectiveDate', 'cessationDate']),
                 'condition': [pick(c, ['conditionType', 'startDate', 'endDate', 'beginAge',
                                        'endAge', 'interval', 'doseCount', 'doseType',
                                        'doseCountLogic', 'vaccineTypes', 'seriesGroups'])
                               for c in s.get('condition', [])]}
                for s in skip.get('set', [])]
        skips.append({'context': skip['context'], 'setLogic': skip.get('setLogic', 'n/a'),
                      'set': sets})
    if skips:
        out['conditionalSkip'] = skips
    return out


def antigens():
    result = {}
    for antigen in ANTIGENS:
        data = json.loads(git_show(f'{DATA_DIR}/AntigenSupportingData- {FILES[antigen]}-508.json'))
        series = []
        for s in data['antigenSupportingData']['series']:
            select = s['selectSeries']
            # The routine schedule: every Standard series, of every series group (the
            # childhood series and the adult ones, such as Pneumococcal 50+ and RSV 75+). The
            # risk-based series need conditions this product does not record.
            if s['seriesType'] != 'Standard':
                continue
            series.append({**pick(s, ['seriesName', 'vaccineGroup', 'requiredGender']),
                           'selectSeries': pick(select, ['defaultSeries', 'productPath',
                                                         'seriesGroup', 'seriesPreference',
                                                         'minAgeToStart', 'maxAgeToStart']),
                           'seriesDose': [compact_dose(d) for d in s['seriesDose']]})
        result[antigen] = series
    return result


def immunity():
    """Evidence of immunity by date of birth (CDSi: MMR before 1957, Varicella before 1980),
    with the CDC's exclusions named, so that the screen can say who the rule does not cover.
    Laboratory evidence and a clinician's diagnosis are observations this product does not
    record: they are left out."""
    result = {}
    for antigen in ANTIGENS:
        data = json.loads(git_show(f'{DATA_DIR}/AntigenSupportingData- {FILES[antigen]}-508.json'))
        born = data['antigenSupportingData'].get('immunity', {}).get('dateOfBirth')
        if not born:
            continue
        month, day, year = born['immunityBirthDate'].split('/')
        result[antigen] = {'bornBefore': f'{year}-{month}-{day}',
                           **pick(born, ['birthCountry']),
                           'exclusions': [e['exclusionTitle'] for e in born.get('exclusion', [])]}
    return result


def schedule():
    data = json.loads(git_show(f'{DATA_DIR}/ScheduleSupportingData.json'))['scheduleSupportingData']
    group_flags = {g['name']: g.get('administerFullVaccineGroup', 'No')
                   for g in data['vaccineGroups']['vaccineGroup']}
    groups = [{'name': g['name'], 'antigens': g['antigen'],
               'administerFullVaccineGroup': group_flags.get(g['name'], 'No')}
              for g in data['vaccineGroupToAntigenMap']['vaccineGroupMap']
              if all(a in ANTIGENS for a in g['antigen'])]
    cvx_map, names = {}, {}
    for entry in data['cvxToAntigenMap']['cvxMap']:
        # The shot form also offers RSV, outside the schedule: its codes are named too.
        if any(a['antigen'] in ANTIGENS + ['RSV'] for a in entry['association']):
            names[entry['cvx']] = entry['shortDescription']
        assoc = [pick(a, ['antigen', 'associationBeginAge', 'associationEndAge'])
                 for a in entry['association'] if a['antigen'] in ANTIGENS]
        if assoc:
            cvx_map[entry['cvx']] = assoc
    conflicts = [{'previous': c['previous']['cvx'], 'current': c['current']['cvx'],
                  'conflictBeginInterval': c['conflictBeginInterval'],
                  'minConflictEndInterval': c['minConflictEndInterval'],
                  'conflictEndInterval': c['conflictEndInterval']}
                 for c in data['liveVirusConflicts']['liveVirusConflict']
                 if c['current']['cvx'] in cvx_map]
    return {'vaccineGroups': groups, 'cvxToAntigen': cvx_map, 'liveVirusConflicts': conflicts}, names


def workbook_rows():
    book = zipfile.ZipFile(io.BytesIO(git_show(WORKBOOK, binary=True)))
    ns = '{http://schemas.openxmlformats.org/spreadsheetml/2006/main}'
    strings = [''.join(t.text or '' for t in si.iter(ns + 't'))
               for si in ET.fromstring(book.read('xl/sharedStrings.xml')).findall(ns + 'si')]
    # The sheet 'FITS Exported TestCases' (sheet3.xml) holds the cases.
    root = ET.fromstring(book.read('xl/worksheets/sheet3.xml'))
    rows = []
    for r in root.iter(ns + 'row'):
        row = {}
        for c in r.findall(ns + 'c'):
            letters = re.match(r'[A-Z]+', c.get('r')).group(0)
            col = 0
            for ch in letters:
                col = col * 26 + ord(ch) - 64
            v = c.find(ns + 'v')
            if v is not None:
                row[col - 1] = strings[int(v.text)] if c.get('t') == 's' else v.text
        rows.append(row)
    header = rows[0]
    return [{header[k]: v for k, v in row.items() if k in header} for row in rows[1:]]


def excel_date(value):
    if not value:
        return None
    return (datetime.date(1899, 12, 30) + datetime.timedelta(days=int(float(value)))).isoformat()


def test_cases():
    cases = []
    for row in workbook_rows():
        group = GROUPS.get(row.get('Vaccine_Group'))
        if group is None:
            continue
        doses = []
        for n in range(1, 8):
            if row.get(f'Date_Administered_{n}'):
                doses.append([excel_date(row[f'Date_Administered_{n}']), row[f'CVX_{n}'],
                              row.get(f'Evaluation_Status_{n}', '')])
        cases.append({'id': row['CDC_Test_ID'], 'name': row['Test_Case_Name'],
                      'dob': excel_date(row['DOB']), 'gender': row['gender'],
                      'assessment': excel_date(row['Assessment_Date']), 'group': group,
                      'doses': doses, 'status': row['Series_Status'],
                      'forecast': [excel_date(row.get('Earliest_Date')),
                                   excel_date(row.get('Recommended_Date')),
                                   excel_date(row.get('Past_Due_Date'))],
                      'type': row.get('Forecast_Test_Type', '').strip()})
    return cases


def write(path, value):
    with open(f'{OUT}/{path}', 'w') as f:
        json.dump(value, f, separators=(',', ':'))
        f.write('\n')


write('reference/us-cdc/antigens.json', {'version': '4.64', 'antigens': antigens(),
                                         'immunity': immunity()})
sched, names = schedule()
write('reference/us-cdc/schedule.json', {'version': '4.64', **sched})
write('reference/cvx.json', [{'cvx': k, 'name': v} for k, v in sorted(names.items(), key=lambda x: int(x[0]))])
write('testing/cdsi-healthy-cases.json', {'version': '4.45', 'cases': test_cases()})
