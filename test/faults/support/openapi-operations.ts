import type { TestServer } from '../../support/test-server.js';

/** The parts of JSON Schema the OpenAPI document's request schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  /** One fixed value (TypeBox's literals). */
  const?: unknown;
  /** One of these (TypeBox's unions). */
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface Operation {
  method: string;
  /** As the document writes it: `/v1/products/{id}/variations/{variationId}`. */
  template: string;
  query: Array<{ name: string; schema: JsonSchema }>;
  body: JsonSchema | undefined;
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of the server's own GET /openapi.json. */
export async function readOperations(server: TestServer): Promise<Operation[]> {
  const response = await server.request('GET', '/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  const document = response.body as { paths: Record<string, Record<string, OpenApiOperation>> };
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map(({ name, schema }) => ({ name, schema })),
        body: operation.requestBody?.content['application/json']?.schema,
      })),
  );
}
