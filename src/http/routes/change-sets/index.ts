import type { ChangeSetService } from '../../../modules/change-sets/change-set-service.js';
import type { App } from '../../plugins/app-types.js';
import { changeSetSteps } from './change-set-steps.js';
import { registerSetRoutes } from './change-sets.js';
import { previewChangeSet } from './preview-change-set.js';

/** The sets, then their steps and preview. */
export function registerChangeSetRoutes(app: App, changeSets: ChangeSetService): void {
  for (const register of [registerSetRoutes, changeSetSteps, previewChangeSet]) register(app, changeSets);
}
