/**
 * The date formats a CSV's date column may be read in: 'MM/DD/YYYY' and 'M/D/YYYY' read alike (one
 * or two digits each); 'DD/MM/YYYY' puts the day first. Apart from the CSV reader because the API's
 * request schema and the page name them, and importing the reader would load papaparse with them.
 */
export const CSV_DATE_FORMATS = ['MM/DD/YYYY', 'M/D/YYYY', 'YYYY-MM-DD', 'DD/MM/YYYY'] as const;
export type CsvDateFormat = (typeof CSV_DATE_FORMATS)[number];
