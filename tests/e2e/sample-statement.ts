/**
 * The samples' OFX 1 statement (tests/fixtures/statements/checking-ofx1-sgml.ofx, January 2027) with
 * its year moved to 2055: 28 years on, the same weekdays, so the end-to-end tests that import it
 * into a ledger of its month keep that month after today whenever they run. Written to a folder of
 * its own per call, as the card test writes its statement; the API tests read the file as it is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SAMPLE = fileURLToPath(new URL('../fixtures/statements/checking-ofx1-sgml.ofx', import.meta.url));

/** The path of the sample statement moved from 2027 to 2055 (its dates and the ids made of them). */
export function sampleStatementIn2055(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-statement-')), 'checking-ofx1-sgml.ofx');
  fs.writeFileSync(file, fs.readFileSync(SAMPLE, 'utf8').replaceAll('2027', '2055'));
  return file;
}
