// Access: signing in and out (sessions), who the caller is (/api/me), and the
// Authenticator the composition root puts in front of every /api route.
import { defineModule } from '../capability.js';
import { accessRoutes } from './access.routes.js';

export { Authenticator } from './authenticator.js';

export const accessModule = defineModule({ name: 'access', tables: ['sessions'], events: [], routes: accessRoutes });
