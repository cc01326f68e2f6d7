/**
 * The words the benchmarks' records are made of (bench/seed.ts, bench/search.ts): a module of
 * its own, so that a bench can use them without reading the full bench's settings.
 */
export const words = {
  visits: ['Annual physical', 'Dental cleaning', 'Eye exam', 'Follow-up', 'Blood work'],
  doctors: ['Dr. Patel', 'Dr. Chen', 'Dr. Okafor', 'Dr. Rossi', 'Dr. Nguyen', 'Dr. Silva'],
  offices: ['Riverside Clinic', 'City Hospital', 'Northside Dental', 'Lakeview Eye Care'],
  medications: ['Lisinopril', 'Vitamin D', 'Amoxicillin', 'Metformin', 'Ibuprofen', 'Iron'],
  conditions: ['Blood pressure', 'Ear infection', 'Diabetes', 'Allergies', 'Asthma'],
  shots: ['Flu vaccine', 'Tetanus booster', 'MMR', 'Hepatitis B', 'COVID-19 booster'],
  notes: ['Referral to cardiology', 'Lab results', 'Discharge letter', 'Questions for Dr.'],
  relations: ['Mother', 'Father', 'Grandfather', 'Grandmother', 'Sibling'],
  providers: ['BlueShield', 'SmileCare', 'VisionFirst', 'Acme Health', 'Guardian'],
  contacts: ['Dr. Priya Patel', 'Main St Pharmacy', 'City Hospital', 'Nurse line'],
} as const;
