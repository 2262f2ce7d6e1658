import type { ImportService } from '../../../modules/imports/import-service.js';
import type { App } from '../../app-types.js';
import { countImports } from './count-imports.js';
import { createImport } from './create-import.js';
import { getImport } from './get-import.js';
import { listImports } from './list-imports.js';

export function registerImportRoutes(app: App, imports: ImportService): void {
  for (const register of [listImports, countImports, getImport, createImport]) register(app, imports);
}
