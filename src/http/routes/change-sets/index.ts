import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import type { App } from '../../plugins/app-types.js';
import { addOperations } from './add-operations.js';
import { changeSetSteps } from './change-set-steps.js';
import { createChangeSet } from './create-change-set.js';
import { getChangeSet } from './get-change-set.js';
import { listChangeSets } from './list-change-sets.js';
import { previewChangeSet } from './preview-change-set.js';

export function registerChangeSetRoutes(app: App, changeSets: ChangeSetService): void {
  for (const register of [createChangeSet, listChangeSets, getChangeSet, addOperations, changeSetSteps, previewChangeSet]) register(app, changeSets);
}
