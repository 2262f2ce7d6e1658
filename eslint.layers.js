import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * The layers of docs/ARCHITECTURE.md ("Layers"), from the top; folders on one row are one
 * layer. A file imports only from its own layer or the ones below it.
 */
export const LAYERS = [
  ['src/main'],
  ['src/app'],
  ['src/http'],
  ['src/metrics'],
  ['src/storage'],
  ['src/webhooks', 'src/rate-limit'],
  ['src/modules'],
  ['src/admin', 'packages/client'],
  ['src/csv'],
  ['src/contract', 'src/text', 'src/config'],
];

/** Inside `src/http/`: the routes and the server's socket-level code stand on the per-request plugins. */
export const HTTP_LAYERS = [['src/http/routes', 'src/http/server'], ['src/http/plugins']];

/** The domain and everything below it import neither the HTTP framework nor the SQL builder. */
export const NO_FRAMEWORK = ['src/modules', 'src/admin', 'packages/client', 'src/csv', 'src/contract', 'src/text', 'src/config'];
const FRAMEWORK_PACKAGES = '^(fastify|kysely)(/.*)?$|^@fastify/';

/** One zone for each layer and each layer above it, so the message names both. */
function zonesOf(layers) {
  return layers.flatMap((row, index) =>
    row.flatMap((target) =>
      layers
        .slice(0, index)
        .flat()
        .map((above) => ({
          target,
          from: above,
          message: `${target}/ may not import ${above}/, a layer above it: docs/ARCHITECTURE.md, "Layers".`,
        })),
    ),
  );
}

/** The client is a package of its own: it imports nothing of the server's. */
const CLIENT_ZONE = {
  target: 'packages/client',
  from: 'src',
  message: 'packages/client/ is a package of its own and may not import src/: docs/ARCHITECTURE.md, "Layers".',
};

export default [
  {
    files: ['src/**/*.ts', 'packages/client/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Imports name the compiled `.js`; the sources are `.ts`.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...zonesOf(LAYERS), ...zonesOf(HTTP_LAYERS), CLIENT_ZONE] }],
    },
  },
  {
    files: NO_FRAMEWORK.map((folder) => `${folder}/**/*.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: FRAMEWORK_PACKAGES, message: 'The domain and the layers below it import neither Fastify nor Kysely: docs/ARCHITECTURE.md, "Layers".' },
          ],
        },
      ],
    },
  },
];
