/**
 * The shape of the CDSi supporting data as shipped under ./data (derived from the CDC's
 * Antigen and Schedule Supporting Data by scripts/vaccines/derive-cdsi-data.py): field names
 * are the CDC's, so the data can be checked against the published files line by line.
 */

export interface AgeRow {
  absMinAge?: string;
  minAge?: string;
  earliestRecAge?: string;
  latestRecAge?: string;
  maxAge?: string;
  effectiveDate?: string;
  cessationDate?: string;
}

export interface IntervalRow {
  fromPrevious?: 'Y' | 'N';
  fromTargetDose?: string;
  fromMostRecent?: string;
  absMinInt?: string;
  minInt?: string;
  earliestRecInt?: string;
  latestRecInt?: string;
  effectiveDate?: string;
  cessationDate?: string;
}

export interface VaccineRow {
  cvx: string;
  vaccineType?: string;
  beginAge?: string;
  endAge?: string;
  forecastVaccineType?: 'Y' | 'N';
}

export interface SkipCondition {
  conditionType: string;
  startDate?: string;
  endDate?: string;
  beginAge?: string;
  endAge?: string;
  interval?: string;
  doseCount?: string;
  doseType?: string;
  doseCountLogic?: string;
  vaccineTypes?: string;
}

export interface SkipSet {
  conditionLogic: string;
  effectiveDate?: string;
  cessationDate?: string;
  condition: SkipCondition[];
}

export interface ConditionalSkip {
  context: 'Both' | 'Evaluation' | 'Forecast';
  setLogic: string;
  set: SkipSet[];
}

export interface SeriesDose {
  doseNumber: string;
  recurringDose?: 'Yes' | 'No';
  seasonalRecommendation?: { startDate?: string; endDate?: string };
  age: AgeRow[];
  interval?: IntervalRow[];
  allowableInterval?: IntervalRow;
  preferableVaccine: VaccineRow[];
  allowableVaccine?: VaccineRow[];
  inadvertentVaccine?: string[];
  conditionalSkip?: ConditionalSkip[];
}

export interface Series {
  seriesName: string;
  vaccineGroup: string;
  requiredGender?: string[];
  selectSeries: {
    defaultSeries?: 'Yes' | 'No';
    productPath?: 'Yes' | 'No';
    /**
     * CDSi's series group: series of one group compete for the antigen (the childhood
     * series, say); another group (Standard 50+, Standard 75+) is judged beside it.
     */
    seriesGroup?: string;
    seriesPreference?: string;
    minAgeToStart?: string;
    maxAgeToStart?: string;
  };
  seriesDose: SeriesDose[];
}

/**
 * CDSi's evidence of immunity by date of birth: a person born before `bornBefore` (in the
 * schedule's country, when one is named) needs no dose of the antigen, unless one of the
 * exclusions applies (health care personnel, pregnancy, …), which the screen names.
 */
export interface ImmunityByBirth {
  bornBefore: string;
  birthCountry?: string;
  exclusions: string[];
}

export interface AntigenData {
  version: string;
  antigens: Record<string, Series[]>;
  immunity?: Record<string, ImmunityByBirth>;
}

export interface ScheduleData {
  version: string;
  vaccineGroups: { name: string; antigens: string[]; administerFullVaccineGroup: string }[];
  cvxToAntigen: Record<
    string,
    { antigen: string; associationBeginAge?: string; associationEndAge?: string }[]
  >;
  liveVirusConflicts: {
    previous: string;
    current: string;
    conflictBeginInterval: string;
    minConflictEndInterval: string;
    conflictEndInterval: string;
  }[];
}

/** One schedule: its supporting data, read as the CDC publishes it. */
export interface SupportingData {
  antigens: AntigenData;
  schedule: ScheduleData;
}
