/** Who holds a SKU of a store: a product itself (variationId null) or one of its variations. */
export interface SkuHolder {
  sku: string;
  productId: number;
  variationId: number | null;
}

/**
 * The store-wide SKU register. Every product and variation SKU has its entry, written in the
 * same transaction as the product or variation; the register alone guarantees uniqueness.
 */
export interface SkuRepository {
  /** The holders of those SKUs; free SKUs are simply absent. */
  holders(storeId: number, skus: readonly string[]): Promise<SkuHolder[]>;
  /**
   * Up to `limit` of the store's SKUs containing `text` (the letters A–Z in either case), in
   * order of their code points, with the product's title.
   */
  search(storeId: number, text: string, limit: number): Promise<Array<SkuHolder & { title: string }>>;
  /** Up to `limit` of the store's SKUs, in order, from the first. */
  firstSkus(storeId: number, limit: number): Promise<string[]>;
  /**
   * Registers the entries and returns the SKUs it could not claim because another writer
   * holds them (committed meanwhile); the caller must then fail its transaction.
   */
  claim(storeId: number, entries: readonly SkuHolder[]): Promise<string[]>;
  /**
   * Frees these SKUs of the product. Until the transaction ends no other writer can register
   * them, nor (where the engine locks rows) write prices checked against them.
   */
  release(storeId: number, productId: number, skus: readonly string[]): Promise<void>;
  /** Moves a SKU between the product itself (variationId null) and one of its variations. */
  reassign(storeId: number, productId: number, sku: string, variationId: number | null): Promise<void>;
  releaseVariation(storeId: number, productId: number, variationId: number): Promise<void>;
}
