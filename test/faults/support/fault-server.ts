/**
 * A test-only entry point: `pricebook serve` (the same `serve`, configured from the environment
 * as the CLI's) with one planted fault (planted-faults.ts), for the negative controls that
 * must kill a real process. Not part of the package: `buildFaultServer` compiles it outside
 * dist/, and it is in neither the `bin` nor the `exports` of package.json.
 *
 *   node <compiled>/test/faults/support/fault-server.js ack-before-commit
 */
import { parseConfig } from '../../../src/config/config.js';
import { serve } from '../../../src/main/serve.js';
import { stopOnSignals } from '../../../src/main/stop-on-signals.js';
import { isPlantedFault, PLANTED_FAULTS } from './planted-faults.js';

const fault = process.argv[2] ?? '';
if (!isPlantedFault(fault)) {
  process.stderr.write(`usage: fault-server <${Object.keys(PLANTED_FAULTS).join('|')}>\n`);
  process.exit(2);
}
stopOnSignals(await serve(parseConfig(process.env), process.stdout, { unitOfWork: PLANTED_FAULTS[fault] }));
