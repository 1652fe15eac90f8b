// Prints docs/events.md from the event catalogue: `npm run docs:events`.
import { eventCatalogue } from '../src/capabilities/index.js';
import { renderEventsMarkdown } from '../src/eventstore/catalogue-doc.js';

process.stdout.write(renderEventsMarkdown(eventCatalogue()));
