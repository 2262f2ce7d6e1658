import type { ProductService } from '../../../modules/catalog/product-service.js';
import type { App } from '../../plugins/app-types.js';
import { bulkCreateProducts } from './bulk-create-products.js';
import { countProducts } from './count-products.js';
import { createProduct } from './create-product.js';
import { deleteProduct } from './delete-product.js';
import { getProduct } from './get-product.js';
import { listProducts } from './list-products.js';
import { updateProduct } from './update-product.js';

export function registerProductRoutes(app: App, products: ProductService): void {
  for (const register of [listProducts, countProducts, getProduct, createProduct, bulkCreateProducts, updateProduct, deleteProduct]) register(app, products);
}
