// Prints docs/errors.md from the error catalogue: `npm run docs:errors`.
import { errorCatalogue } from '../src/capabilities/index.js';
import { renderErrorsMarkdown } from '../src/api/errors-doc.js';

process.stdout.write(renderErrorsMarkdown(errorCatalogue()));
