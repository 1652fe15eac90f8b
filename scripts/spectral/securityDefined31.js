// Spectral's oas3-operation-security-defined, read as OpenAPI 3.1: every scheme a
// security requirement names must be defined in components.securitySchemes, and
// the scopes of an oauth2 scheme must be among its flows' scopes. On a scheme of
// any other type the list is a list of roles, which 3.1 allows and 3.0 did not
// (this document lists each operation's scope there; see its info.description).
export default function securityDefined31(requirement, _options, { document, path }) {
  if (requirement === null || typeof requirement !== 'object') return [];
  const schemes = document.data?.components?.securitySchemes ?? {};
  const results = [];
  for (const [name, scopes] of Object.entries(requirement)) {
    const scheme = schemes[name];
    if (scheme === null || typeof scheme !== 'object') {
      results.push({ message: `"${name}" is not a scheme defined in components.securitySchemes.`, path: [...path, name] });
      continue;
    }
    if (scheme.type !== 'oauth2' || !Array.isArray(scopes)) continue;
    const defined = Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow?.scopes ?? {}));
    scopes.forEach((scope, i) => {
      if (!defined.includes(scope)) results.push({ message: `"${scope}" is not among the scopes of the oauth2 scheme "${name}".`, path: [...path, name, i] });
    });
  }
  return results;
}
