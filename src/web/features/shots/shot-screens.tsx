/**
 * The shot screens. The form fills 'Shot Name' with the usual name of the 'Vaccine' chosen
 * (while the name is empty or still the one filled before), and a new one records several
 * shots of one visit: 'Add another shot' adds a 'Vaccine' and 'Shot Name' pair, each pair
 * saved as its own shot with the form's date, location and person.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { shotDefinition } from '../../../shared/records';
import { vaccineLabel } from '../../../shared/vaccines/vaccines';
import type { FormFill } from '../records/form-fill';
import type { FormValues } from '../records/form-values';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { groupFieldName, groupKeys, type RepeatGroup } from '../records/repeat-groups';

export { ShotsListPage as ListPage } from './shots-list-page';

const shotsOfOneVisit: RepeatGroup = {
  fields: ['shot_name', 'vaccine_code'],
  addLabel: key('Add another shot'),
  noun: key('shot'),
  plural: key('shots'),
};

/** Each 'Vaccine' of the form with the 'Shot Name' beside it: the form's own, then each pair's. */
function vaccineFields(values: FormValues): [vaccine: string, name: string][] {
  return [
    ['vaccine_code', 'shot_name'],
    ...groupKeys(values, shotsOfOneVisit).map((key): [string, string] => [
      groupFieldName('vaccine_code', key),
      groupFieldName('shot_name', key),
    ]),
  ];
}

const text = (value: FormValues[string] | undefined) => (typeof value === 'string' ? value : '');

const namesOfVaccines: FormFill = {
  inputs: (values) =>
    vaccineFields(values)
      .map(([vaccine]) => text(values[vaccine]))
      .join('|'),
  fill: (values) => ({
    values: Object.fromEntries(
      vaccineFields(values).map(([vaccine, name]) => {
        const code = text(values[vaccine]);
        return [name, code ? (vaccineLabel(code) ?? '') : ''];
      }),
    ),
  }),
};

const useVaccineNames = () => namesOfVaccines;

export function DetailPage() {
  return <RecordDetailPage definition={shotDefinition} />;
}

export function FormPage() {
  const { t } = useTranslation();
  const repeat = useMemo(
    (): RepeatGroup => ({
      ...shotsOfOneVisit,
      addLabel: t(shotsOfOneVisit.addLabel),
      noun: t(shotsOfOneVisit.noun),
      plural: t(shotsOfOneVisit.plural),
    }),
    [t],
  );
  return <RecordFormPage definition={shotDefinition} useFill={useVaccineNames} repeat={repeat} />;
}
