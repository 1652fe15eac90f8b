// GET /docs: the API reference, rendered in the browser from GET /openapi.json
// by Scalar's standalone bundle (@scalar/api-reference), served by the service
// itself from node_modules. Nothing is fetched from a CDN: the page's
// Content-Security-Policy admits only this origin (and Scalar's default fonts,
// from its CDN, are turned off).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from 'express';

const require = createRequire(import.meta.url);

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Scalar injects its styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function apiReference(o: { title: string; specUrl: string }): Router {
  const bundlePath = require.resolve('@scalar/api-reference/browser/standalone.js');
  // package.json is not exported; it sits two folders above dist/browser/.
  const version = (JSON.parse(readFileSync(path.join(path.dirname(bundlePath), '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  const configuration = {
    url: o.specUrl,
    slug: 'api',
    title: o.title,
    // Nothing from Scalar's servers: no CDN fonts, no AI agent or API registry, no telemetry.
    withDefaultFonts: false,
    agent: { disabled: true },
    telemetry: false,
    showDeveloperTools: 'never',
    theme: 'default',
    layout: 'modern',
    metaData: { title: o.title },
  };
  const init = `Scalar.createApiReference('#app', ${JSON.stringify(configuration)});\n`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${o.title.replace(/[<>&"]/g, '')}</title>
</head>
<body>
<div id="app"></div>
<script src="/docs/scalar-${version}.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
  const router = Router();
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('html').send(html);
  });
  router.get(`/docs/scalar-${version}.js`, (_req, res) => {
    // The file name carries the version, so it may be cached for good.
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type('application/javascript').sendFile(bundlePath, { cacheControl: false });
  });
  router.get('/docs/init.js', (_req, res) => void res.type('application/javascript').send(init));
  return router;
}
