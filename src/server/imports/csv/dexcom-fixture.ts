/**
 * For the tests: a Dexcom Clarity export as Clarity writes it (its header row, the patient's,
 * the devices' and the alert settings' rows, then insulin, carbs, exercise and a sensor
 * reading every five minutes), with a night's low beyond the sensor's range ('Low') and an afternoon's high
 * ('High'). The readings are a day's shape (meals, a night's dip), not random, so the same
 * call always writes the same file.
 */

export const DEXCOM_HEADER = (unit: 'mg/dL' | 'mmol/L') =>
  `Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,Patient Info,Device Info,Source Device ID,Glucose Value (${unit}),Insulin Value (u),Carb Value (grams),Duration (hh:mm:ss),Glucose Rate of Change (${unit}/min),Transmitter Time (Long Integer),Transmitter ID`;

export const READINGS_PER_DAY = 288;

/** The minutes of the day when the sensor read 'Low' (02:00–02:29) and 'High' (15:00–15:14). */
export const LOW_MINUTES = [120, 150] as const;
export const HIGH_MINUTES = [900, 915] as const;

/** mg/dL at a minute of the day: a fasting level, a rise after each meal, a dip at night. */
export function glucoseAt(minute: number): number {
  const meal = (at: number, height: number) => {
    const after = minute - at;
    return after < 0 || after > 180 ? 0 : height * Math.sin((Math.PI * after) / 180);
  };
  const night = minute < 240 ? -45 * Math.sin((Math.PI * minute) / 240) : 0;
  return Math.round(105 + night + meal(450, 70) + meal(750, 90) + meal(1110, 80));
}

const pad = (value: number) => String(value).padStart(2, '0');

export interface DexcomFixture {
  days: string[];
  unit?: 'mg/dL' | 'mmol/L';
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
}

/** The text of a Clarity export of the given days. */
export function dexcomExport({
  days,
  unit = 'mg/dL',
  firstName = 'Maya',
  lastName = 'Lopez',
  dateOfBirth = '2012-05-09',
}: DexcomFixture): string {
  const rows: string[] = [DEXCOM_HEADER(unit)];
  const row = (cells: (string | number)[]) => {
    const padded = [...cells, ...Array<string>(14 - cells.length).fill('')];
    padded[0] = rows.length;
    rows.push(padded.join(','));
  };
  row(['', '', 'FirstName', '', firstName]);
  row(['', '', 'LastName', '', lastName]);
  row(['', '', 'DateOfBirth', '', dateOfBirth]);
  row(['', '', 'Device', '', '', 'Android G6', 'Android G6']);
  row(['', '', 'Device', '', '', '"G6 Receiver, PL1234567"', 'PL1234567']);
  row(['', '', 'Sensor', '', '', 'G6', 'Android G6']);
  row(['', '', 'Alert', 'High', '', '', 'Android G6', unit === 'mg/dL' ? 250 : 13.9]);
  row(['', '', 'Alert', 'Low', '', '', 'Android G6', unit === 'mg/dL' ? 70 : 3.9]);
  let transmitterTime = 4_200_000;
  for (const day of days) {
    for (let reading = 0; reading < READINGS_PER_DAY; reading += 1) {
      const minute = reading * 5 + 2;
      const time = `${day}T${pad(Math.floor(minute / 60))}:${pad(minute % 60)}:37`;
      const mgdl = glucoseAt(minute);
      const within = (range: readonly [number, number]) => minute >= range[0] && minute < range[1];
      const value = within(LOW_MINUTES)
        ? 'Low'
        : within(HIGH_MINUTES)
          ? 'High'
          : unit === 'mg/dL'
            ? mgdl
            : (mgdl / 18.016).toFixed(1);
      transmitterTime += 300;
      row([
        '',
        time,
        'EGV',
        '',
        '',
        '',
        'Android G6',
        value,
        '',
        '',
        '',
        '',
        transmitterTime,
        '8XY4Z2',
      ]);
      if (minute === 452) {
        row(['', time, 'Insulin', 'Fast-Acting', '', '', 'Android G6', '', 4.5]);
        row(['', time, 'Carbs', '', '', '', 'Android G6', '', '', 45]);
        row(['', time, 'Exercise', 'Medium', '', '', 'Android G6', '', '', '', '00:30:00']);
      }
    }
  }
  return `${rows.join('\r\n')}\r\n`;
}
