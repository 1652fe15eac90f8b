// The layering (design invariant 13), held by `npm run lint:deps` (part of `npm test`):
//  - lower layers (platform, eventstore, projections, commands, api, dispatch)
//    never import from capabilities;
//  - a capability imports another only through that capability's index.ts;
//  - the lower layers in order: platform < eventstore < projections < commands < api,
//    with dispatch beside api (it reads the log and the projections, never the API);
//  - no import cycles, type-only imports included (a cycle of types is still a
//    knot a reader has to untie).
// The composition root (src/service.ts, src/main.ts, src/cli.ts) may import anything.
const LOWER = '^src/(platform|eventstore|projections|commands|api|dispatch)/';
const LAYERS = ['platform', 'eventstore', 'projections', 'commands', 'api', 'dispatch'];

/** `name` may import only from `allowed` among the lower layers, and nothing of the composition root (src/*.ts). */
function layer(name, allowed) {
  const refused = LAYERS.filter((l) => !allowed.includes(l));
  return [
    ...(refused.length
      ? [{ name: `${name}-layer-order`, comment: `${name} may import only ${allowed.join(', ')} among the lower layers.`, severity: 'error', from: { path: `^src/${name}/` }, to: { path: `^src/(${refused.join('|')})/` } }]
      : []),
    { name: `${name}-imports-the-root`, comment: 'The composition root (config, service, main, cli) passes things in; nothing below imports it.', severity: 'error', from: { path: `^src/${name}/` }, to: { path: '^src/[^/]+\\.ts$' } },
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'lower-layer-imports-capability',
      comment: 'platform, eventstore, projections, commands, api and dispatch must not depend on capabilities: pass what they need in.',
      severity: 'error',
      from: { path: LOWER },
      to: { path: '^src/capabilities/' },
    },
    {
      name: 'capability-reaches-into-another',
      comment: "A capability uses another only through that capability's index.ts.",
      severity: 'error',
      from: { path: '^src/capabilities/([^/]+)/' },
      to: { path: '^src/capabilities/([^/]+)/', pathNot: ['^src/capabilities/$1/', '^src/capabilities/[^/]+/index\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make module start-up order fragile (an index.ts read before it is filled).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layer('platform', ['platform']),
    ...layer('eventstore', ['platform', 'eventstore']),
    ...layer('projections', ['platform', 'eventstore', 'projections']),
    ...layer('commands', ['platform', 'eventstore', 'projections', 'commands']),
    ...layer('api', ['platform', 'eventstore', 'projections', 'commands', 'api']),
    ...layer('dispatch', ['platform', 'eventstore', 'projections', 'dispatch']),
    {
      name: 'src-imports-tests-or-bench',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
