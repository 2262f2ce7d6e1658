import type { Config } from '../config/config.js';
import { ImportRunner, type ImportRunnerLog, type ImportRunnerOptions } from '../modules/imports/import-runner.js';
import type { Services } from './services.js';

/**
 * The CSV import runner over the services' imports, `PRICEBOOK_IMPORT_CONCURRENCY` at once,
 * woken as soon as this process queues an import. Not started.
 */
export function buildImportRunner(config: Config, services: Services, log: ImportRunnerLog, options: ImportRunnerOptions = {}): ImportRunner {
  const runner = new ImportRunner(services.imports, log, { concurrency: config.importConcurrency, ...options });
  services.imports.whenQueued(() => runner.wake());
  return runner;
}
