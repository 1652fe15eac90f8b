// Roles and scopes: what each role may do, and a key's scopes within its member's role.
import { expect } from 'chai';
import { effectiveScopes, ROLE_SCOPES, SCOPES } from '../../src/api/scopes.js';

describe('roles and scopes (unit)', () => {
  it('gives owners every scope, agents work without settings or member changes, viewers read only', () => {
    expect(ROLE_SCOPES.owner).to.deep.equal(SCOPES);
    expect(ROLE_SCOPES.agent).to.include.members(['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write']);
    expect(ROLE_SCOPES.agent).to.not.include.members(['settings:write']);
    expect(ROLE_SCOPES.agent.some((s) => s === 'settings:write' || s === 'members:invite')).to.equal(false);
    expect(ROLE_SCOPES.agent).to.include.members(ROLE_SCOPES.viewer as string[]);
    expect(ROLE_SCOPES.viewer.every((s) => s.endsWith(':read'))).to.equal(true);
  });
  it('gives the audit log (audit:read) to owners and admins, never to agents or viewers', () => {
    expect(ROLE_SCOPES.owner).to.include('audit:read');
    expect(ROLE_SCOPES.admin).to.include('audit:read');
    expect(ROLE_SCOPES.agent).to.not.include('audit:read');
    expect(ROLE_SCOPES.viewer).to.not.include('audit:read');
  });
  it('intersects a key with the current role', () => {
    expect(effectiveScopes('viewer', ['conversations:write', 'conversations:read'])).to.deep.equal(['conversations:read']);
    expect(effectiveScopes('owner', ['conversations:read'])).to.deep.equal(['conversations:read']);
  });
});
