import type { CategoryService } from '../../../modules/catalog/category-service.js';
import type { App } from '../../plugins/app-types.js';
import { countCategories } from './count-categories.js';
import { createCategory } from './create-category.js';
import { deleteCategory } from './delete-category.js';
import { getCategory } from './get-category.js';
import { listCategories } from './list-categories.js';
import { updateCategory } from './update-category.js';

export function registerCategoryRoutes(app: App, categories: CategoryService): void {
  for (const register of [listCategories, countCategories, getCategory, createCategory, updateCategory, deleteCategory]) register(app, categories);
}
