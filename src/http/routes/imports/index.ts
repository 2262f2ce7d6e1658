import type { ImportService } from '../../../modules/imports/import-service.js';
import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import type { App } from '../../plugins/app-types.js';
import { countImports } from './count-imports.js';
import { createImport } from './create-import.js';
import { getImport } from './get-import.js';
import { listImportChanges } from './list-import-changes.js';
import { listImports } from './list-imports.js';

export function registerImportRoutes(app: App, imports: ImportService, changeSets: ChangeSetService): void {
  for (const register of [listImports, countImports, getImport, listImportChanges]) register(app, imports);
  createImport(app, imports, changeSets);
}
