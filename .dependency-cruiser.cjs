// The layering (design invariant 13), held by `npm run lint:deps` (part of `npm test`):
//  - lower layers (platform, eventstore, projections, commands, api, dispatch)
//    never import from capabilities;
//  - a capability imports another only through that capability's index.ts;
//  - no import cycles.
// The composition root (src/service.ts, src/main.ts, src/cli.ts) may import anything.
const LOWER = '^src/(platform|eventstore|projections|commands|api|dispatch)/';

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
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
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
