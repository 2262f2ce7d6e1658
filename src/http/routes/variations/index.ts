import type { VariationService } from '../../../modules/catalog/variation-service.js';
import type { App } from '../../plugins/app-types.js';
import { countVariations } from './count-variations.js';
import { createVariation } from './create-variation.js';
import { deleteVariation } from './delete-variation.js';
import { getVariation } from './get-variation.js';
import { listVariations } from './list-variations.js';
import { updateVariation } from './update-variation.js';

export function registerVariationRoutes(app: App, variations: VariationService): void {
  for (const register of [listVariations, countVariations, getVariation, createVariation, updateVariation, deleteVariation]) register(app, variations);
}
