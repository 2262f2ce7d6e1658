/**
 * The example bodies of the document's creates: for each collection whose `POST` body schema
 * carries `examples` (the contract's input schema: `StrictObject({…}, { title, examples })`), its
 * first example (the document's `example` of the body), by the collection's path as the document writes it (`/v1/categories`). Suites
 * that must make a record of every resource (another store's ids, control characters in every
 * marked field) make one of a resource they have no hand-written fixture for from its example,
 * so a plain resource needs none.
 */
export type CreateExamples = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

interface DocumentWithBodies {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { example?: unknown; schema?: { examples?: unknown[] } }> } }>>;
}

export function createExamples(document: DocumentWithBodies): CreateExamples {
  const examples = new Map<string, Readonly<Record<string, unknown>>>();
  for (const [template, operations] of Object.entries(document.paths)) {
    // The document moves a body schema's first example to its media type's `example`.
    const media = operations.post?.requestBody?.content?.['application/json'];
    const example = media?.example ?? media?.schema?.examples?.[0];
    if (typeof example === 'object' && example !== null && !Array.isArray(example)) examples.set(template, example as Record<string, unknown>);
  }
  return examples;
}
