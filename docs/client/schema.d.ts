// Generated from docs/openapi.json by openapi-typescript (npm run openapi); do not edit by hand.
// Use with openapi-fetch: createClient<paths>({ baseUrl }) — see docs/client/example.ts.
export interface paths {
    "/api/audit/checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A signed checkpoint of the workspace's hash chain at its current head
         * @description **Scope:** `audit:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAuditCheckpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/checkpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed checkpoints issued for the workspace (on request, with exports, and on schedule), newest first
         * @description **Scope:** `audit:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAuditCheckpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's log as NDJSON, verifiable offline: a header, every event as stored with its hash, a signed checkpoint
         * @description **Scope:** `audit:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAuditExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys (JWK, Ed25519) that verify audit checkpoints, by kid; rotated keys stay listed
         * @description **Scope:** `audit:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAuditKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit_log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log: every change and sign-in activity, with its actor, address and request, newest first
         * @description **Scope:** `audit:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List automation rules, in the order they run (all of them, at most 100; unpaginated)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAutomationRules"];
        put?: never;
        /**
         * Create an automation rule (last in the order); the answer carries its signing secret, once
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postAutomationRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the order rules run in on one event (every rule, first to last)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postAutomationRulesReorder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an automation rule
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAutomationRulesById"];
        /**
         * Change an automation rule (the fields sent); enabling it again applies it to what happens from then on
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putAutomationRulesById"];
        post?: never;
        /**
         * Delete an automation rule (its actions not yet run, and its calls not yet delivered, go with it)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteAutomationRulesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules/{id}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A rule's run log: each action it decided on, newest event first, with its outcome
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAutomationRulesByIdActions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a automation rule's deliveries (newest first)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAutomationRulesByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules/{id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one of a automation rule's deliveries with its attempts
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getAutomationRulesByIdDeliveriesByDeliveryId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Republish a automation rule's delivery (same seq and bytes, 8 new attempts)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postAutomationRulesByIdDeliveriesByDeliveryIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automation_rules/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dry run: whether the rule's `if` matches a conversation now, and what it would do (changes nothing)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postAutomationRulesByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List channels
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getChannels"];
        put?: never;
        /**
         * Create a channel (an api bridge or an e-mail address)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postChannels"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a channel
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getChannelsById"];
        /**
         * Change a channel's name or webhook_url, or disable (enabled: false) and enable it
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putChannelsById"];
        post?: never;
        /**
         * Delete a channel (its conversations stay)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteChannelsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a channel's deliveries (newest first)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getChannelsByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one of a channel's deliveries with its attempts
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getChannelsByIdDeliveriesByDeliveryId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}/inbound": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post a customer's message as the channel's bridge (signed)
         * @description **Authentication:** the channel's signature: `x-service-signature` is the hex HMAC-SHA256 of the exact body bytes keyed with the channel's `webhook_secret`, `x-service-timestamp` the Unix time in seconds (at most 5 minutes off). A wrong content type, an unknown channel and a bad signature all answer the same empty 401. Bytes accepted before (a retry, or a replay under a new timestamp) answer 202 and file nothing; the channel's own rate limit applies once the signature verifies.
         */
        post: operations["postChannelsByIdInbound"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}/inbound/mime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post a raw e-mail (message/rfc822) to an e-mail channel (signed)
         * @description **Authentication:** the channel's signature: `x-service-signature` is the hex HMAC-SHA256 of the exact body bytes keyed with the channel's `webhook_secret`, `x-service-timestamp` the Unix time in seconds (at most 5 minutes off). A wrong content type, an unknown channel and a bad signature all answer the same empty 401. Bytes accepted before (a retry, or a replay under a new timestamp) answer 202 and file nothing; the channel's own rate limit applies once the signature verifies.
         */
        post: operations["postChannelsByIdInboundMime"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}/ratings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post a customer's satisfaction rating (CSAT, 1 to 5) of a thread as the channel's bridge (signed like inbound posts)
         * @description **Authentication:** the channel's signature: `x-service-signature` is the hex HMAC-SHA256 of the exact body bytes keyed with the channel's `webhook_secret`, `x-service-timestamp` the Unix time in seconds (at most 5 minutes off). A wrong content type, an unknown channel and a bad signature all answer the same empty 401. Bytes accepted before (a retry, or a replay under a new timestamp) answer 202 and file nothing; the channel's own rate limit applies once the signature verifies.
         */
        post: operations["postChannelsByIdRatings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a channel's webhook_secret (the one replaced verifies for grace_seconds; earlier ones stop at once)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postChannelsByIdRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List companies
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getCompanies"];
        put?: never;
        /**
         * Create a company
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postCompanies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a company
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getCompaniesById"];
        /**
         * Change a company
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putCompaniesById"];
        post?: never;
        /**
         * Delete a company
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteCompaniesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{id}/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a company's contacts
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getCompaniesByIdContacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getContacts"];
        put?: never;
        /**
         * Create a contact
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContacts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search contacts with the filter language (erased contacts never match; archived ones do unless the query says archived = false)
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsSearch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a contact (or as it was right after event `as_of_seq`)
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getContactsById"];
        /**
         * Change a contact
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putContactsById"];
        post?: never;
        /**
         * Erase a contact: their personal data and the content of every part of their conversations become unreadable everywhere; a repeat answers the same
         * @description **Scope:** `contacts:delete`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteContactsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a contact
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsByIdArchive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a contact to a company
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsByIdCompanies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/companies/{company_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a contact from a company
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteContactsByIdCompaniesByCompanyId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request a subject-access export of a contact (built in the background)
         * @description **Scope:** `contacts:export`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsByIdExports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A contact's events, oldest first, each with its actor (an erased contact's too: ids and who did what stay)
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getContactsByIdHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge a contact into another: its conversations, companies, tags, notes and what the survivor lacks of its identifiers and custom attributes go over; it answers 410 from then on
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsByIdMerge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A contact's notes, newest first
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getContactsByIdNotes"];
        put?: never;
        /**
         * Write a note on a contact
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsByIdNotes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/notes/{note_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a note on a contact
         * @description **Scope:** `contacts:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getContactsByIdNotesByNoteId"];
        put?: never;
        post?: never;
        /**
         * Delete a note on a contact
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteContactsByIdNotesByNoteId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tag a contact (tagging them twice changes nothing)
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsByIdTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/tags/{tag_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Take a tag off a contact (taking off one they lack changes nothing)
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteContactsByIdTagsByTagId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/unarchive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unarchive a contact
         * @description **Scope:** `contacts:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postContactsByIdUnarchive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversation_attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversation attribute definitions (all of them, by name; unpaginated)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationAttributes"];
        put?: never;
        /**
         * Define a conversation attribute (string, integer, float, boolean, date, or list with options)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationAttributes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversation_attributes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a conversation attribute definition
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationAttributesById"];
        /**
         * Change a definition's description, options (list) or archived flag; its name and type never change
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putConversationAttributesById"];
        post?: never;
        /**
         * Delete a definition no conversation holds a value of (409 attribute_in_use otherwise: archive it instead)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteConversationAttributesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversations (optionally those of a view; a custom view draws from the expensive rate limit)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversations"];
        put?: never;
        /**
         * Start a conversation (a teammate writes first)
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply one action to many conversations (by ids or by a query), as a job run in the background
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Count conversations per built-in view and per custom view the caller can see, in one statement (one unit of the expensive rate limit, and one per custom view)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationsCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search conversations with the filter language
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsSearch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a conversation with its parts (or as it was right after event `as_of_seq`)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationsById"];
        /**
         * Set a conversation's custom attribute values (typed by their definitions; null removes one)
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putConversationsById"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation's events, oldest first, each with its actor
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationsByIdHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge a conversation into another of its channel: it is closed and read-only, its thread's later messages land in the other, which gets a `merged` part naming it
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsByIdMerge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/parts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close, open, snooze, assign or prioritise a conversation
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsByIdParts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/parts/{part_id}/attachments/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an attachment of an e-mail part (as an attachment, never rendered)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationsByIdPartsByPartIdAttachmentsByIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/parts/{part_id}/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A part's e-mail: headers, sanitised HTML, quoted history, sender authentication, delivery
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationsByIdPartsByPartIdEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/parts/{part_id}/redact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redact a part: its body and attachments become unreadable everywhere (log, feed, webhooks, stored answers); a repeat answers the current state
         * @description **Scope:** `conversations:delete`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsByIdPartsByPartIdRedact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/parts/{part_id}/unsend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unsend your own comment within UNSEND_WINDOW_SECONDS: its content is destroyed and the channel's bridge is told to retract it
         * @description **Scope:** `conversations:delete`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsByIdPartsByPartIdUnsend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/ratings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record the customer's satisfaction rating (CSAT, 1 to 5); a later rating replaces it
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsByIdRatings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply (comment, sent to the channel) or add a note
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsByIdReply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/sla": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation's SLA: the policy that applies, its pending due dates, its breaches and met targets (sla null: none applies)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationsByIdSla"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/statistics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation's response statistics (first response, resolution, reopens, replies; calendar and business seconds)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getConversationsByIdStatistics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tag a conversation (tagging it twice changes nothing)
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postConversationsByIdTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/tags/{tag_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Take a tag off a conversation (taking off one it lacks changes nothing)
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteConversationsByIdTagsByTagId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/downloads/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an attached file by the URL a bridge's delivery carries (no key: the URL is signed, and expires)
         * @description **Authentication:** none.
         */
        get: operations["getDownloadsByToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/email_domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the workspace's e-mail domains
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getEmailDomains"];
        put?: never;
        /**
         * Add an e-mail domain to verify (publish its txt_record, then POST …/verify)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postEmailDomains"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/email_domains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an e-mail domain
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getEmailDomainsById"];
        put?: never;
        post?: never;
        /**
         * Delete an e-mail domain (another workspace may then verify it; channels on it stay)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteEmailDomainsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/email_domains/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify an e-mail domain: its TXT record must hold the workspace's token (409 domain_not_verified when it does not)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postEmailDomainsByIdVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed: the workspace's events in seq order
         * @description **Scope:** `events:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Schemas of the events, one per event type (the envelopes webhooks deliver)
         * @description **Scope:** `events:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getEventsSchemas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed as Server-Sent Events: live, resumable with Last-Event-ID
         * @description **Scope:** `events:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getEventsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An export: its status, progress, size and expiry
         * @description **Scope:** `contacts:export`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getExportsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a completed export (one JSON document, streamed as an attachment)
         * @description **Scope:** `contacts:export`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getExportsByIdDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invites/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invite (join the workspace); the answer is the same whether or not the address has an account
         * @description **Authentication:** none.
         */
        post: operations["postInvitesAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A job: what it does, its status, and its items' outcomes counted
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getJobsById"];
        put?: never;
        post?: never;
        /**
         * Cancel a job: its items not yet done are not done (409 once it has finished)
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteJobsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{id}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A job's items in order, each with its conversation, outcome and error
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getJobsByIdItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys (yours; every key with api_keys:revoke_any)
         * @description **Scope:** none (any authenticated caller). **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getKeys"];
        put?: never;
        /**
         * Mint an API key
         * @description **Scope:** `api_keys:create`. **Authentication:** a session cookie signed in within the last 15 minutes (an API key cannot do this). Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description **Scope:** `api_keys:revoke_own`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteKeysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate one of your API keys (new secret, same scopes)
         * @description **Scope:** `api_keys:create`. **Authentication:** a session cookie signed in within the last 15 minutes (an API key cannot do this). Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postKeysByIdRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who is calling
         * @description **Scope:** none (any authenticated caller). **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/availability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set your own availability: online (routing gives you conversations of your teams) or away (none)
         * @description **Scope:** none (any authenticated caller). **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putMeAvailability"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Forget your devices: every device cookie issued to you so far stops easing your sign-ins
         * @description **Scope:** none (any authenticated caller). **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteMeDevices"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/mentions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The notes that mentioned the caller (a key's member), newest first
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getMeMentions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members
         * @description **Scope:** `members:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the pending invites (or, with status=expired, those past their expiry: revoke them to forget their e-mails)
         * @description **Scope:** `members:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getMembersInvites"];
        put?: never;
        /**
         * Invite a member (the token goes to the invitee's mailbox when the operator set a mail relay)
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postMembersInvites"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/invites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a pending invite: its token stops working and the invitee's e-mail is forgotten; a repeat answers the same
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteMembersInvitesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a member's role, capacity (routing's limit of open conversations), or both
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putMembersById"];
        post?: never;
        /**
         * Remove a member (their keys stop working, their pending invites are revoked)
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteMembersById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/{id}/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Forget a member's devices (owners only): every device cookie issued to them so far stops easing their sign-ins
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteMembersByIdDevices"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a removed member (owners only): their name and e-mail become unreadable everywhere; a repeat answers the same
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postMembersByIdErase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/outbound": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List outbound collections (all of them, at most 150, newest first; unpaginated)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getOutbound"];
        put?: never;
        /**
         * Create an outbound collection (a draft)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postOutbound"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/outbound/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an outbound collection, with its state and counts
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getOutboundById"];
        /**
         * Change a draft outbound collection
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putOutboundById"];
        post?: never;
        /**
         * Delete a draft outbound collection
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteOutboundById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/outbound/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a collection: no recipient that has not been sent will be
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postOutboundByIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/outbound/{id}/recipients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a collection's recipients (one per contact of the frozen audience), with their conversation or error
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getOutboundByIdRecipients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/outbound/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a draft now, or schedule it for its send_at (the audience is resolved when sending starts)
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postOutboundByIdSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password_resets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password-reset link, mailed to the address's account (the same answer whether or not it has one)
         * @description **Authentication:** none.
         */
        post: operations["postPasswordResets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password_resets/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a reset token (once; every session of the account ends, every API key of it is revoked)
         * @description **Authentication:** none.
         */
        post: operations["postPasswordResetsConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/csat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * CSAT: ratings overall, by team and by assignee (those the conversation had when rated)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getReportsCsat"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/response_times": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Response times: count, median and p90 of first response and resolution, calendar and business time
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getReportsResponseTimes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/saved-replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List saved replies (all of them, at most 150, by name; unpaginated)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getSavedReplies"];
        put?: never;
        /**
         * Create a saved reply
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postSavedReplies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/saved-replies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a saved reply
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getSavedRepliesById"];
        /**
         * Change a saved reply's name or body
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putSavedRepliesById"];
        post?: never;
        /**
         * Delete a saved reply
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteSavedRepliesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/saved-replies/{id}/render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render a saved reply for a conversation (its contact, and the caller as the member)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postSavedRepliesByIdRender"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in (sets the session cookie)
         * @description **Authentication:** none.
         */
        post: operations["postSession"];
        /**
         * Sign out (the device cookie stays: see DELETE /api/me/devices)
         * @description **Authentication:** none.
         */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/business_hours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the workspace's business hours (time zone, weekly intervals, holidays)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getSettingsBusinessHours"];
        /**
         * Set the workspace's business hours (the whole calendar: an IANA time zone, weekly intervals, holidays)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putSettingsBusinessHours"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sla_policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SLA policies, in the order they are tried (unpaginated)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getSlaPolicies"];
        put?: never;
        /**
         * Create an SLA policy (tried after the existing ones): match, targets in seconds, business hours or calendar time
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postSlaPolicies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sla_policies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an SLA policy
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getSlaPoliciesById"];
        /**
         * Replace an SLA policy (conversations take the change when they next change)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putSlaPoliciesById"];
        post?: never;
        /**
         * Delete an SLA policy
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteSlaPoliciesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tags (all of them, by name; unpaginated)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getTags"];
        put?: never;
        /**
         * Create a tag
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tags/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a tag
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getTagsById"];
        /**
         * Rename a tag (everything tagged with it shows the new name)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putTagsById"];
        post?: never;
        /**
         * Delete a tag (it comes off every conversation and contact carrying it)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteTagsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List teams (unpaginated)
         * @description **Scope:** `members:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getTeams"];
        put?: never;
        /**
         * Create a team
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postTeams"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/rosters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace several rosters at once (move members between teams), all or nothing
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postTeamsRosters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a team
         * @description **Scope:** `members:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getTeamsById"];
        /**
         * Rename a team, change its assignment rule (routing), or both
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putTeamsById"];
        post?: never;
        /**
         * Delete a team (its conversations and channels are unassigned from it)
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteTeamsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace a team's roster
         * @description **Scope:** `members:invite`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putTeamsByIdMembers"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file (raw bytes with ?filename=, or a multipart form), to attach to a reply, a note or a new conversation by its id
         * @description **Scope:** `conversations:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postUploads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an upload: its name, type, size, and the part it went to (or when it expires)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getUploadsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an upload's file (as an attachment, never rendered)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getUploadsByIdContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the views the caller can see (workspace views, then their private ones; unpaginated)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getViews"];
        put?: never;
        /**
         * Save a view: a conversations filter, private (yours) or the workspace's (needs settings:write)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postViews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/views/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a view (another member's private view is 404)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getViewsById"];
        /**
         * Change a view (a workspace view, or making one, needs settings:write)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putViewsById"];
        post?: never;
        /**
         * Delete a view (a workspace view needs settings:write; an owner with settings:write may delete another member's private view)
         * @description **Scope:** `conversations:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteViewsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getWebhooksById"];
        /**
         * Change a webhook endpoint
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        put: operations["putWebhooksById"];
        post?: never;
        /**
         * Delete a webhook endpoint and its delivery log
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        delete: operations["deleteWebhooksById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook's deliveries (newest first)
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getWebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one of a webhook's deliveries with its attempts
         * @description **Scope:** `settings:read`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`.
         */
        get: operations["getWebhooksByIdDeliveriesByDeliveryId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Republish a webhook's delivery (same seq and bytes, 8 new attempts)
         * @description **Scope:** `settings:write`. **Authentication:** an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`. Safe to retry with an `Idempotency-Key`.
         */
        post: operations["postWebhooksByIdDeliveriesByDeliveryIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This reference, in a browser
         * @description The API reference rendered from /openapi.json by Scalar, served by the service itself (no CDN). No authentication.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description The process is up (503 while it shuts down). No authentication.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description The Prometheus text exposition format (docs/operations.md, Metrics, lists them). When the operator sets METRICS_TOKEN it needs `Authorization: Bearer <METRICS_TOKEN>`; otherwise no authentication.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The OpenAPI 3.1 description of the API. No authentication.
         */
        get: operations["getOpenapi.json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description The database and the event store answer. No authentication.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Actor */
        Actor: {
            /** @enum {string} */
            type: "member" | "api_key" | "channel" | "system" | "job" | "rule";
            /** @description The member's, key's or channel's id; for the system, what acted (`unsnooze`, `cli`, ...). */
            id: string;
            /**
             * Format: uuid
             * @description The member behind it (an API key acts as its member); null for channels and the system.
             */
            member_id: string | null;
        };
        /** ApiKey */
        ApiKey: {
            /** @constant */
            type: "api_key";
            /** Format: uuid */
            id: string;
            name: string;
            scopes: ("conversations:read" | "conversations:write" | "conversations:delete" | "contacts:read" | "contacts:write" | "contacts:delete" | "contacts:export" | "settings:read" | "settings:write" | "members:read" | "members:invite" | "events:read" | "api_keys:create" | "api_keys:revoke_own" | "api_keys:revoke_any" | "audit:read")[];
            /** Format: uuid */
            member_id: string;
            /** @enum {string} */
            status: "active" | "revoked";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            rotated_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        /**
         * ApiKeyCreatedFeedEvent
         * @description A member minted an API key. The secret never enters the log; only its hash is kept beside it.
         */
        ApiKeyCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "api_key.created";
            /** @constant */
            aggregate_type: "api_key";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                key_id: string;
                /** Format: uuid */
                member_id: string;
                name: string;
                scopes: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ApiKeyCreatedStreamedEvent
         * @description A member minted an API key. The secret never enters the log; only its hash is kept beside it.
         */
        ApiKeyCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "api_key.created";
            /** @constant */
            aggregate_type: "api_key";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                key_id: string;
                /** Format: uuid */
                member_id: string;
                name: string;
                scopes: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ApiKeyList */
        ApiKeyList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["ApiKey"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * ApiKeyRevokedFeedEvent
         * @description A key was revoked: by its member or by someone holding api_keys:revoke_any (`reason` `revoked`, `revoked_by` that member), or because the password of its member's account was reset (`reason` `password_reset`: a reset revokes every key of the account, in each workspace; `revoked_by` is then the key's own member, whose account it is, and the event's actor `{type: 'system', id: 'password_reset'}`). Events older than `reason` have none: read them as `revoked`.
         */
        ApiKeyRevokedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "api_key.revoked";
            /** @constant */
            aggregate_type: "api_key";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                key_id: string;
                /** Format: uuid */
                member_id: string;
                /** Format: uuid */
                revoked_by: string;
                reason?: "revoked" | "password_reset";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ApiKeyRevokedStreamedEvent
         * @description A key was revoked: by its member or by someone holding api_keys:revoke_any (`reason` `revoked`, `revoked_by` that member), or because the password of its member's account was reset (`reason` `password_reset`: a reset revokes every key of the account, in each workspace; `revoked_by` is then the key's own member, whose account it is, and the event's actor `{type: 'system', id: 'password_reset'}`). Events older than `reason` have none: read them as `revoked`.
         */
        ApiKeyRevokedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "api_key.revoked";
            /** @constant */
            aggregate_type: "api_key";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                key_id: string;
                /** Format: uuid */
                member_id: string;
                /** Format: uuid */
                revoked_by: string;
                reason?: "revoked" | "password_reset";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ApiKeyRotatedFeedEvent
         * @description A key got a new secret with the same scopes; the old secret stopped working at once.
         */
        ApiKeyRotatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "api_key.rotated";
            /** @constant */
            aggregate_type: "api_key";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                key_id: string;
                /** Format: uuid */
                member_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ApiKeyRotatedStreamedEvent
         * @description A key got a new secret with the same scopes; the old secret stopped working at once.
         */
        ApiKeyRotatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "api_key.rotated";
            /** @constant */
            aggregate_type: "api_key";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                key_id: string;
                /** Format: uuid */
                member_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ApiKeyWithSecret */
        ApiKeyWithSecret: {
            /** @constant */
            type: "api_key";
            /** Format: uuid */
            id: string;
            name: string;
            scopes: ("conversations:read" | "conversations:write" | "conversations:delete" | "contacts:read" | "contacts:write" | "contacts:delete" | "contacts:export" | "settings:read" | "settings:write" | "members:read" | "members:invite" | "events:read" | "api_keys:create" | "api_keys:revoke_own" | "api_keys:revoke_any" | "audit:read")[];
            /** Format: uuid */
            member_id: string;
            /** @enum {string} */
            status: "active" | "revoked";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            rotated_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** @description Shown this once; only a hash is kept. */
            secret: string;
        };
        /**
         * AssignedBy
         * @description On an assignment part routing appended (author `{type: 'system', id: 'routing'}`): the team's assignment rule that chose `assignee_id`, and the team. Absent on assignments made by a teammate or an API key.
         */
        AssignedBy: {
            /** @enum {string} */
            rule: "round_robin" | "balanced";
            /** Format: uuid */
            team_id: string;
        };
        /** Attachment */
        Attachment: {
            /** @description Where it downloads from: the sender's URL, or this service's (an e-mail's attachment, an upload: with a key). */
            url: string;
            /** Format: uuid */
            upload_id?: string;
            name?: string;
            content_type?: string;
            size?: number;
        };
        /** AudienceContacts */
        AudienceContacts: {
            contact_ids: string[];
        };
        /** AudienceQuery */
        AudienceQuery: {
            /** @description The contacts filter language (POST /api/contacts/search). */
            query: Record<string, never>;
        };
        /** AudienceTags */
        AudienceTags: {
            tag_ids: string[];
        };
        /** AuditActor */
        AuditActor: {
            /** @enum {string} */
            type: "member" | "api_key" | "channel" | "system" | "job" | "rule";
            /** @description The member's, the API key's, the channel's or the job's id (a bulk action's changes act as their job, with its member as `member_id`); for `system`, which part of the service (e.g. `sign_in`, `unsnooze`). */
            id: string;
            /** Format: uuid */
            member_id: string | null;
        };
        /** AuditCheckpoint */
        AuditCheckpoint: {
            /** @constant */
            type: "audit_checkpoint";
            /** Format: uuid */
            id: string;
            version: number;
            /** Format: uuid */
            tenant_id: string;
            seq: number;
            /** @description The chain hash of the event at `seq` (hex SHA-256); for seq 0, the genesis value. */
            hash: string;
            /** Format: date-time */
            signed_at: string;
            /** @description Version 2: hex SHA-256 of the canonical form of the checkpoint issued before this one in the workspace (null for the first). Absent in version 1. */
            prev_checkpoint?: string | null;
            /** @description The key that signed it (GET /api/audit/keys). */
            kid: string;
            /** @description Ed25519 signature, canonical unpadded base64url, over the RFC 8785 canonical JSON of {version, tenant_id, seq, hash, signed_at, prev_checkpoint} (version 1: {tenant_id, seq, hash, signed_at}). */
            signature: string;
        };
        /** AuditCheckpointList */
        AuditCheckpointList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["AuditCheckpoint"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * AuditEntry
         * @description One entry of the audit log. `seq` is the event's, or null for an entry beside the log. `ip` and `user_agent` are personal data: null once the member (or, for a channel's post, the contact) is erased, and for what carries none (workers, entries older than this field).
         */
        AuditEntry: {
            /** @constant */
            type: "audit_entry";
            /** Format: uuid */
            id: string;
            /** @description The event type for a change (docs/events.md); else one of the actions recorded beside the log (docs/api-guide.md: Audit log). */
            action: string;
            seq: number | null;
            aggregate_type: string;
            aggregate_id: string;
            actor: components["schemas"]["AuditActor"];
            ip: string | null;
            user_agent: string | null;
            request_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** AuditEntryList */
        AuditEntryList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["AuditEntry"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * AuditExportCheckpoint
         * @description The last line: a signed checkpoint of the last event exported, as GET /api/audit/checkpoint answers it without `id` (which no signature covers).
         */
        AuditExportCheckpoint: {
            /** @constant */
            type: "audit_checkpoint";
            version?: number;
            /** Format: uuid */
            tenant_id: string;
            seq: number;
            hash: string;
            signed_at: string;
            prev_checkpoint?: string | null;
            kid: string;
            signature: string;
        };
        /**
         * AuditExportEvent
         * @description One line per event, in seq order.
         */
        AuditExportEvent: {
            /** Format: uuid */
            tenant_id: string;
            seq: number;
            /** Format: uuid */
            id: string;
            /** @description The event type. */
            type: string;
            aggregate_type: string;
            aggregate_id: string;
            /** @description As stored: personal fields sealed (`$sealed`). */
            payload: Record<string, never>;
            /** @description As stored: actor, request id, idempotency key, sealed client. */
            metadata: Record<string, never>;
            /** @description ISO 8601, UTC, milliseconds. */
            created_at: string;
            /** @description hex SHA-256 of the previous line's hash followed by the RFC 8785 canonical JSON of this line without `hash`. */
            hash: string;
        };
        /**
         * AuditExportHeader
         * @description The first line.
         */
        AuditExportHeader: {
            /** @constant */
            type: "audit_export";
            /** Format: uuid */
            tenant_id: string;
            after_seq: number;
            to_seq: number;
            /** @description The chain hash of `after_seq` (the genesis value, 64 zeros, for 0): what the first event line chains from. */
            prev_hash: string;
        };
        /** AuditExportLine */
        AuditExportLine: components["schemas"]["AuditExportHeader"] | components["schemas"]["AuditExportEvent"] | components["schemas"]["AuditExportCheckpoint"];
        /**
         * AuditKeySet
         * @description A JWK Set (RFC 7517) of the Ed25519 keys that sign audit checkpoints.
         */
        AuditKeySet: {
            /** @description Every key that signed a checkpoint, and the one signing now; oldest first. */
            keys: components["schemas"]["AuditPublicKey"][];
            /** @description The key that signs checkpoints now. */
            current_kid: string;
        };
        /** AuditPublicKey */
        AuditPublicKey: {
            /** @constant */
            kty: "OKP";
            /** @constant */
            crv: "Ed25519";
            /** @description The public key, base64url (RFC 8037). */
            x: string;
            /** @description Its RFC 7638 thumbprint: what checkpoints name in `kid`. */
            kid: string;
            /** @constant */
            alg: "EdDSA";
            /** @constant */
            use: "sig";
        };
        /** Author */
        Author: {
            /** @enum {string} */
            type: "contact" | "member" | "api_key" | "system";
            id: string;
        };
        /**
         * AutomationAction
         * @description Exactly one action.
         */
        AutomationAction: {
            /** @description Assign to this member (null: unassign). */
            assign?: string | null;
            /** @description Move to this team (null: no team), through the team's routing. */
            team?: string | null;
            /** @constant */
            close?: true;
            /** @enum {string} */
            priority?: "low" | "normal" | "high" | "urgent";
            tags_add?: string[];
            tags_remove?: string[];
            /** @description Set one custom attribute of the conversation (null removes it), typed by its definition. */
            set_attribute?: {
                name: string;
                value: string | number | boolean | null;
            };
            /** @description Add an internal note with this text. */
            note?: string;
            /**
             * Format: uuid
             * @description Reply with this saved reply, rendered for the conversation's contact: sent to an `api` channel's bridge as a teammate's reply is; an e-mail channel sends no automatic reply.
             */
            reply_with?: string;
            /** @description Snooze for this long. */
            snooze_for_seconds?: number;
            /** @description POST the event and the conversation to this URL, signed with the rule's secret as webhooks are (X-Service-Signature), through the webhook retries and the rule's delivery log. */
            call_url?: string;
        };
        /** AutomationActionError */
        AutomationActionError: {
            code: string;
            message: string;
        };
        /** AutomationActionRun */
        AutomationActionRun: {
            /** @constant */
            type: "automation_action";
            /** Format: uuid */
            id: string;
            /** @description The event that set the rule off. */
            seq: number;
            event_type: string;
            /** @description Which of the rule's actions (from 0). */
            action_index: number;
            /** Format: uuid */
            conversation_id: string;
            /**
             * @description `skipped`: the action had nothing to change (closing a closed conversation); `failed`: refused (the error says why) or given up on.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed" | "skipped";
            error: components["schemas"]["AutomationActionError"] | null;
            /** Format: date-time */
            decided_at: string;
            /** Format: date-time */
            finished_at: string | null;
        };
        /** AutomationActionRunList */
        AutomationActionRunList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["AutomationActionRun"][];
            pages: components["schemas"]["Pages"];
        };
        /** AutomationLoop */
        AutomationLoop: {
            /** @description The event it would have run on. */
            seq: number;
            /** @description The rules whose actions led to that event, then this one. */
            chain: string[];
            /**
             * @description `repeat`: this rule was in the chain already; `depth`: the chain held 3 rules already.
             * @enum {string}
             */
            reason: "repeat" | "depth";
            /** Format: date-time */
            at: string;
        };
        /** AutomationRule */
        AutomationRule: {
            /** @constant */
            type: "automation_rule";
            /** Format: uuid */
            id: string;
            name: string;
            enabled: boolean;
            /** @description Its place in the order rules run in on one event (from 0). */
            position: number;
            /** @description The event types that trigger it (conversation events). */
            on: string[];
            /** @description The conversations filter language; null matches every conversation. */
            if: Record<string, never> | null;
            /** @description Its actions, run in order. */
            then: components["schemas"]["AutomationAction"][];
            /** @description The last time the rule was stopped from running by the loop rules (null: never). */
            loop: components["schemas"]["AutomationLoop"] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * AutomationRuleCreatedFeedEvent
         * @description An automation rule was created, last in the order (`position`). It applies to the events committed after this one; its signing secret (for `call_url`) is kept beside the log, never in an event.
         */
        AutomationRuleCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.created";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                enabled: boolean;
                /** @description The event types that trigger it. */
                on: string[];
                /** @description The conversations filter language; null: every conversation. */
                if: {
                    [key: string]: unknown;
                } | null;
                /** @description The actions, in order, each as the request named it. */
                then: {
                    [key: string]: unknown;
                }[];
                position: number;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * AutomationRuleCreatedStreamedEvent
         * @description An automation rule was created, last in the order (`position`). It applies to the events committed after this one; its signing secret (for `call_url`) is kept beside the log, never in an event.
         */
        AutomationRuleCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.created";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                enabled: boolean;
                /** @description The event types that trigger it. */
                on: string[];
                /** @description The conversations filter language; null: every conversation. */
                if: {
                    [key: string]: unknown;
                } | null;
                /** @description The actions, in order, each as the request named it. */
                then: {
                    [key: string]: unknown;
                }[];
                position: number;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * AutomationRuleDeletedFeedEvent
         * @description A rule was deleted: its actions not yet run are dropped, and its calls not yet delivered with them.
         */
        AutomationRuleDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.deleted";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * AutomationRuleDeletedStreamedEvent
         * @description A rule was deleted: its actions not yet run are dropped, and its calls not yet delivered with them.
         */
        AutomationRuleDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.deleted";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * AutomationRuleList
         * @description Every rule of the workspace, in the order they run on one event.
         */
        AutomationRuleList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["AutomationRule"][];
        };
        /**
         * AutomationRuleReorderedFeedEvent
         * @description The rules' order (in which they run on one event): every rule's id, first to last. The aggregate is the workspace's rule set (its id: the tenant's).
         */
        AutomationRuleReorderedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.reordered";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * AutomationRuleReorderedStreamedEvent
         * @description The rules' order (in which they run on one event): every rule's id, first to last. The aggregate is the workspace's rule set (its id: the tenant's).
         */
        AutomationRuleReorderedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.reordered";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * AutomationRuleTest
         * @description Whether the rule's `if` matches the conversation as it is now, and what its actions would do. Nothing changes.
         */
        AutomationRuleTest: {
            /** @constant */
            type: "automation_rule_test";
            /** Format: uuid */
            rule_id: string;
            /** Format: uuid */
            conversation_id: string;
            enabled: boolean;
            matches: boolean;
            /** @description The event types that would set it off (the dry run sets nothing off: it asks only about the conversation). */
            on: string[];
            /** @description What it would do, in order; empty when the conversation does not match. */
            actions: components["schemas"]["AutomationTestAction"][];
        };
        /**
         * AutomationRuleUpdatedFeedEvent
         * @description A rule changed; only changed fields are in the payload. Enabling it again makes it apply to the events committed after this one (not to those in between).
         */
        AutomationRuleUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.updated";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                enabled?: boolean;
                /** @description The event types that trigger it. */
                on?: string[];
                /** @description The conversations filter language; null: every conversation. */
                if?: {
                    [key: string]: unknown;
                } | null;
                /** @description The actions, in order, each as the request named it. */
                then?: {
                    [key: string]: unknown;
                }[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * AutomationRuleUpdatedStreamedEvent
         * @description A rule changed; only changed fields are in the payload. Enabling it again makes it apply to the events committed after this one (not to those in between).
         */
        AutomationRuleUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "automation_rule.updated";
            /** @constant */
            aggregate_type: "automation_rule";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                enabled?: boolean;
                /** @description The event types that trigger it. */
                on?: string[];
                /** @description The conversations filter language; null: every conversation. */
                if?: {
                    [key: string]: unknown;
                } | null;
                /** @description The actions, in order, each as the request named it. */
                then?: {
                    [key: string]: unknown;
                }[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /** AutomationRuleWithSecret */
        AutomationRuleWithSecret: {
            /** @constant */
            type: "automation_rule";
            /** Format: uuid */
            id: string;
            name: string;
            enabled: boolean;
            /** @description Its place in the order rules run in on one event (from 0). */
            position: number;
            /** @description The event types that trigger it (conversation events). */
            on: string[];
            /** @description The conversations filter language; null matches every conversation. */
            if: Record<string, never> | null;
            /** @description Its actions, run in order. */
            then: components["schemas"]["AutomationAction"][];
            /** @description The last time the rule was stopped from running by the loop rules (null: never). */
            loop: components["schemas"]["AutomationLoop"] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Signs its `call_url` requests (X-Service-Signature, as webhooks). Shown once, in this answer. */
            secret: string;
        };
        /** AutomationTestAction */
        AutomationTestAction: {
            action: components["schemas"]["AutomationAction"];
            description: string;
        };
        /**
         * BusinessHours
         * @description The workspace's business hours. Until they are set, business-hours SLA policies count every second.
         */
        BusinessHours: {
            /** @enum {string} */
            type: "business_hours";
            /** @description IANA time zone name; null until business hours are set. */
            time_zone: string | null;
            intervals: {
                /** @enum {string} */
                day: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                start: string;
                end: string;
            }[];
            holidays: string[];
            /** Format: date-time */
            updated_at: string | null;
        };
        /**
         * BusinessHoursSetFeedEvent
         * @description The workspace's business hours were set (the whole calendar): an IANA time zone, weekly intervals in that zone's wall-clock time, and holidays (whole days closed). SLA policies with business_hours true count only this time.
         */
        BusinessHoursSetFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "business_hours.set";
            /** @constant */
            aggregate_type: "business_hours";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                time_zone: string;
                intervals: {
                    day: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                    start: string;
                    end: string;
                }[];
                holidays: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * BusinessHoursSetStreamedEvent
         * @description The workspace's business hours were set (the whole calendar): an IANA time zone, weekly intervals in that zone's wall-clock time, and holidays (whole days closed). SLA policies with business_hours true count only this time.
         */
        BusinessHoursSetStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "business_hours.set";
            /** @constant */
            aggregate_type: "business_hours";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                time_zone: string;
                intervals: {
                    day: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                    start: string;
                    end: string;
                }[];
                holidays: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /** Channel */
        Channel: {
            /** @constant */
            type: "channel";
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "api" | "email";
            name: string;
            source: string;
            default_team_id: string | null;
            webhook_url: string | null;
            receive_only: boolean;
            /** @description false: disabled. Its signed routes answer the same empty 401 as an unknown channel, and nothing is sent to its bridge. */
            enabled: boolean;
            /** @description The support address of an `email` channel; null for `api`. */
            address: string | null;
            /** @description The DKIM selector replies are signed with; null when they are not signed. */
            dkim_selector: string | null;
            /** Format: date-time */
            secret_rotated_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * ChannelCreatedFeedEvent
         * @description A channel was created for a source: an `api` bridge, or an `email` channel whose `address` is its support address (its source). Its webhook_secret and DKIM private key are sealed beside the log, never in it.
         */
        ChannelCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.created";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
                kind: "api" | "email";
                name: string;
                source: string;
                default_team_id: string | null;
                address?: string;
                dkim_selector?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ChannelCreatedStreamedEvent
         * @description A channel was created for a source: an `api` bridge, or an `email` channel whose `address` is its support address (its source). Its webhook_secret and DKIM private key are sealed beside the log, never in it.
         */
        ChannelCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.created";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
                kind: "api" | "email";
                name: string;
                source: string;
                default_team_id: string | null;
                address?: string;
                dkim_selector?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ChannelDeletedFeedEvent
         * @description A channel was deleted: its secrets are gone, its signed routes answer the same empty 401 as an unknown channel, and nothing more is sent to its bridge. Its conversations stay, naming it.
         */
        ChannelDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.deleted";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ChannelDeletedStreamedEvent
         * @description A channel was deleted: its secrets are gone, its signed routes answer the same empty 401 as an unknown channel, and nothing more is sent to its bridge. Its conversations stay, naming it.
         */
        ChannelDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.deleted";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ChannelList */
        ChannelList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Channel"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * ChannelSecretRotatedFeedEvent
         * @description A channel got a new webhook_secret. The one it replaces verifies until previous_valid_until (the rotation time itself when asked for no grace); every secret retired by an earlier rotation stopped verifying at once.
         */
        ChannelSecretRotatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.secret_rotated";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
                /** Format: date-time */
                previous_valid_until: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ChannelSecretRotatedStreamedEvent
         * @description A channel got a new webhook_secret. The one it replaces verifies until previous_valid_until (the rotation time itself when asked for no grace); every secret retired by an earlier rotation stopped verifying at once.
         */
        ChannelSecretRotatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.secret_rotated";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
                /** Format: date-time */
                previous_valid_until: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ChannelUpdatedFeedEvent
         * @description A channel's name, webhook_url or `enabled` changed; only the changed fields are in the payload (webhook_url null: receive-only). A disabled channel's signed routes answer the same empty 401 as an unknown channel, and nothing is sent to its bridge until it is enabled again.
         */
        ChannelUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.updated";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
                name?: string;
                webhook_url?: string | null;
                enabled?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ChannelUpdatedStreamedEvent
         * @description A channel's name, webhook_url or `enabled` changed; only the changed fields are in the payload (webhook_url null: receive-only). A disabled channel's signed routes answer the same empty 401 as an unknown channel, and nothing is sent to its bridge until it is enabled again.
         */
        ChannelUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "channel.updated";
            /** @constant */
            aggregate_type: "channel";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                channel_id: string;
                name?: string;
                webhook_url?: string | null;
                enabled?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ChannelWithRotatedSecret */
        ChannelWithRotatedSecret: {
            /** @constant */
            type: "channel";
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "api" | "email";
            name: string;
            source: string;
            default_team_id: string | null;
            webhook_url: string | null;
            receive_only: boolean;
            /** @description false: disabled. Its signed routes answer the same empty 401 as an unknown channel, and nothing is sent to its bridge. */
            enabled: boolean;
            /** @description The support address of an `email` channel; null for `api`. */
            address: string | null;
            /** @description The DKIM selector replies are signed with; null when they are not signed. */
            dkim_selector: string | null;
            /** Format: date-time */
            secret_rotated_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The new secret, shown this once. */
            webhook_secret: string;
            /** Format: date-time */
            previous_secret_valid_until: string;
        };
        /** Company */
        Company: {
            /** @constant */
            type: "company";
            /** Format: uuid */
            id: string;
            company_id: string;
            name: string;
            website: string | null;
            plan: string | null;
            size: number | null;
            custom_attributes: {
                [key: string]: string | number | boolean;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * CompanyCreatedFeedEvent
         * @description A company was created. `id` is the service's, `company_id` the workspace's own identifier (unique in the workspace).
         */
        CompanyCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "company.created";
            /** @constant */
            aggregate_type: "company";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                company_id: string;
                name: string;
                website: string | null;
                plan: string | null;
                size: number | null;
                custom_attributes: {
                    [key: string]: string | number | boolean;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * CompanyCreatedStreamedEvent
         * @description A company was created. `id` is the service's, `company_id` the workspace's own identifier (unique in the workspace).
         */
        CompanyCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "company.created";
            /** @constant */
            aggregate_type: "company";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                company_id: string;
                name: string;
                website: string | null;
                plan: string | null;
                size: number | null;
                custom_attributes: {
                    [key: string]: string | number | boolean;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * CompanyDeletedFeedEvent
         * @description A company was deleted; its company_id may be used again.
         */
        CompanyDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "company.deleted";
            /** @constant */
            aggregate_type: "company";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * CompanyDeletedStreamedEvent
         * @description A company was deleted; its company_id may be used again.
         */
        CompanyDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "company.deleted";
            /** @constant */
            aggregate_type: "company";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** CompanyList */
        CompanyList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Company"][];
            pages: components["schemas"]["Pages"];
        };
        /** CompanyRef */
        CompanyRef: {
            /** @constant */
            type: "company";
            /** Format: uuid */
            id: string;
            company_id: string;
            name: string;
        };
        /**
         * CompanyUpdatedFeedEvent
         * @description Fields of a company changed; only changed fields are in the payload, and custom_attributes, when present, is the whole resulting set.
         */
        CompanyUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "company.updated";
            /** @constant */
            aggregate_type: "company";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                website?: string | null;
                plan?: string | null;
                size?: number | null;
                custom_attributes?: {
                    [key: string]: string | number | boolean;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * CompanyUpdatedStreamedEvent
         * @description Fields of a company changed; only changed fields are in the payload, and custom_attributes, when present, is the whole resulting set.
         */
        CompanyUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "company.updated";
            /** @constant */
            aggregate_type: "company";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                website?: string | null;
                plan?: string | null;
                size?: number | null;
                custom_attributes?: {
                    [key: string]: string | number | boolean;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /** Contact */
        Contact: {
            /** @constant */
            type: "contact";
            /** Format: uuid */
            id: string;
            external_id: string | null;
            email: string | null;
            name: string | null;
            phone: string | null;
            custom_attributes: {
                [key: string]: string | number | boolean;
            };
            /** @description The companies the contact belongs to, in the order it joined them. */
            companies: components["schemas"]["CompanyRef"][];
            /** @description Its tags by id and current name, by name. */
            tags: components["schemas"]["TagRef"][];
            /**
             * Format: uuid
             * @description The channel the contact was first seen on (inbound post or teammate-started conversation); null when created through the API.
             */
            channel_id: string | null;
            archived: boolean;
            /** Format: date-time */
            archived_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * ContactArchivedFeedEvent
         * @description A contact was archived: still readable by id and listed with `archived=true`, left out of the default list.
         */
        ContactArchivedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.archived";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactArchivedStreamedEvent
         * @description A contact was archived: still readable by id and listed with `archived=true`, left out of the default list.
         */
        ContactArchivedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.archived";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactCompanyAttachedFeedEvent
         * @description A contact now belongs to a company (`company_id` is the company's `id`). A contact may belong to several companies.
         */
        ContactCompanyAttachedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.company_attached";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                company_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactCompanyAttachedStreamedEvent
         * @description A contact now belongs to a company (`company_id` is the company's `id`). A contact may belong to several companies.
         */
        ContactCompanyAttachedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.company_attached";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                company_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactCompanyDetachedFeedEvent
         * @description A contact no longer belongs to a company (`company_id` is the company's `id`). Deleting a company detaches its contacts without this event.
         */
        ContactCompanyDetachedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.company_detached";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                company_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactCompanyDetachedStreamedEvent
         * @description A contact no longer belongs to a company (`company_id` is the company's `id`). Deleting a company detaches its contacts without this event.
         */
        ContactCompanyDetachedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.company_detached";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                company_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactCreatedFeedEvent
         * @description A contact (customer) was created, by an inbound post, a teammate-started conversation (`channel_id` names the channel) or the API (`channel_id` null). `custom_attributes` is absent when the contact was found or filled from a conversation.
         */
        ContactCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.created";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                external_id: string | null;
                /** @description Personal data: null once erased. */
                email: string | null;
                /** @description Personal data: null once erased. */
                name: string | null;
                /** @description Personal data: null once erased. */
                phone: string | null;
                /** @description Personal data: null once erased. */
                custom_attributes?: {
                    [key: string]: string | number | boolean;
                } | null;
                channel_id: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactCreatedStreamedEvent
         * @description A contact (customer) was created, by an inbound post, a teammate-started conversation (`channel_id` names the channel) or the API (`channel_id` null). `custom_attributes` is absent when the contact was found or filled from a conversation.
         */
        ContactCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.created";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                external_id: string | null;
                /** @description Personal data: null once erased. */
                email: string | null;
                /** @description Personal data: null once erased. */
                name: string | null;
                /** @description Personal data: null once erased. */
                phone: string | null;
                /** @description Personal data: null once erased. */
                custom_attributes?: {
                    [key: string]: string | number | boolean;
                } | null;
                channel_id: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactErasedFeedEvent
         * @description A contact was erased: their data keys were destroyed, so their personal fields and the content of every part of their conversations read as null everywhere from now on (log, feed, deliveries, stored answers). Ids only: the conversations and parts it made unreadable, and `thread_keys`, a keyed hash of each bridge thread of theirs (channel and thread id, HMAC-SHA256 under a key derived from SERVICE_CHANNELS_SECRET): the tombstones by which a post to an erased thread, replayed or late, is recognised and files nothing.
         */
        ContactErasedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.erased";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                conversation_ids: string[];
                part_ids: string[];
                thread_keys?: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactErasedStreamedEvent
         * @description A contact was erased: their data keys were destroyed, so their personal fields and the content of every part of their conversations read as null everywhere from now on (log, feed, deliveries, stored answers). Ids only: the conversations and parts it made unreadable, and `thread_keys`, a keyed hash of each bridge thread of theirs (channel and thread id, HMAC-SHA256 under a key derived from SERVICE_CHANNELS_SECRET): the tombstones by which a post to an erased thread, replayed or late, is recognised and files nothing.
         */
        ContactErasedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.erased";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                conversation_ids: string[];
                part_ids: string[];
                thread_keys?: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ContactErasure */
        ContactErasure: {
            /** @constant */
            type: "contact_erasure";
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            erased_at: string;
        };
        /** ContactExportFile */
        ContactExportFile: {
            /** @constant */
            type: "contact_export";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            workspace_id: string;
            /** Format: uuid */
            contact_id: string;
            /** Format: date-time */
            generated_at: string;
            contact: components["schemas"]["Contact"];
            companies: components["schemas"]["Company"][];
            conversations: components["schemas"]["ExportedConversation"][];
            outbound: components["schemas"]["ExportedOutboundRecipient"][];
            events: components["schemas"]["FeedEvent"][];
        };
        /** ContactList */
        ContactList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Contact"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * ContactMergedFeedEvent
         * @description Another contact (`merged_id`) was merged into this one, the survivor (so the merge is in the survivor's history). The merged contact's conversations (`conversation_ids`) are now the survivor's; what the survivor lacked of its identifiers, custom attributes, companies and tags came over in the events just before (contact.updated, contact.company_attached, contact.tagged), and `external_id_moved` says its external_id did. From now on the merged contact answers 410 `contact_merged` naming the survivor, a message found by its identifiers is filed under the survivor, and erasing the survivor erases it too. Ids only.
         */
        ContactMergedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.merged";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                merged_id: string;
                conversation_ids: string[];
                external_id_moved: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactMergedStreamedEvent
         * @description Another contact (`merged_id`) was merged into this one, the survivor (so the merge is in the survivor's history). The merged contact's conversations (`conversation_ids`) are now the survivor's; what the survivor lacked of its identifiers, custom attributes, companies and tags came over in the events just before (contact.updated, contact.company_attached, contact.tagged), and `external_id_moved` says its external_id did. From now on the merged contact answers 410 `contact_merged` naming the survivor, a message found by its identifiers is filed under the survivor, and erasing the survivor erases it too. Ids only.
         */
        ContactMergedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.merged";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                merged_id: string;
                conversation_ids: string[];
                external_id_moved: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ContactNote */
        ContactNote: {
            /** @constant */
            type: "contact_note";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            contact_id: string;
            /** @description Personal data: sealed in the log under the note's key, which the contact's erasure destroys. */
            body: string | null;
            author: components["schemas"]["ContactNoteAuthor"];
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactNoteAuthor
         * @description Who wrote it: a member, or an API key (acting as its member).
         */
        ContactNoteAuthor: {
            /** @enum {string} */
            type: "member" | "api_key";
            id: string;
        };
        /**
         * ContactNoteCreatedFeedEvent
         * @description A teammate wrote a note on a contact (`aggregate_id` is the contact, so the note is in the contact's history). Its `body` is personal data, sealed under the note's data key, which the contact's erasure destroys: it reads as null everywhere from then on.
         */
        ContactNoteCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact_note.created";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                note_id: string;
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                body: string | null;
                author: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactNoteCreatedStreamedEvent
         * @description A teammate wrote a note on a contact (`aggregate_id` is the contact, so the note is in the contact's history). Its `body` is personal data, sealed under the note's data key, which the contact's erasure destroys: it reads as null everywhere from then on.
         */
        ContactNoteCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact_note.created";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                note_id: string;
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                body: string | null;
                author: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactNoteDeletedFeedEvent
         * @description A note on a contact was deleted. Ids only; the note is gone from the contact's notes (its body stays sealed in the log until the contact is erased).
         */
        ContactNoteDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact_note.deleted";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                note_id: string;
                /** Format: uuid */
                contact_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactNoteDeletedStreamedEvent
         * @description A note on a contact was deleted. Ids only; the note is gone from the contact's notes (its body stays sealed in the log until the contact is erased).
         */
        ContactNoteDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact_note.deleted";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                note_id: string;
                /** Format: uuid */
                contact_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ContactNoteList */
        ContactNoteList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["ContactNote"][];
            pages: components["schemas"]["Pages"];
        };
        /** ContactRef */
        ContactRef: {
            /** @constant */
            type: "contact";
            /** Format: uuid */
            id: string;
        };
        /**
         * ContactTaggedFeedEvent
         * @description A tag was added to a contact (a delta: tagging them again appends nothing). `name` is the tag's name at the time; the catalog has the current one.
         */
        ContactTaggedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.tagged";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactTaggedStreamedEvent
         * @description A tag was added to a contact (a delta: tagging them again appends nothing). `name` is the tag's name at the time; the catalog has the current one.
         */
        ContactTaggedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.tagged";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactUnarchivedFeedEvent
         * @description An archived contact was brought back into the default list.
         */
        ContactUnarchivedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.unarchived";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactUnarchivedStreamedEvent
         * @description An archived contact was brought back into the default list.
         */
        ContactUnarchivedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.unarchived";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactUntaggedFeedEvent
         * @description A tag was taken off a contact (a delta: untagging what is not there appends nothing). A deleted tag comes off through tag.deleted instead.
         */
        ContactUntaggedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.untagged";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactUntaggedStreamedEvent
         * @description A tag was taken off a contact (a delta: untagging what is not there appends nothing). A deleted tag comes off through tag.deleted instead.
         */
        ContactUntaggedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.untagged";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactUpdatedFeedEvent
         * @description Fields of a contact changed; only the changed fields are in the payload (null clears one), and custom_attributes, when present, is the whole resulting set.
         */
        ContactUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.updated";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                external_id?: string | null;
                /** @description Personal data: null once erased. */
                email?: string | null;
                /** @description Personal data: null once erased. */
                name?: string | null;
                /** @description Personal data: null once erased. */
                phone?: string | null;
                /** @description Personal data: null once erased. */
                custom_attributes?: {
                    [key: string]: string | number | boolean;
                } | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ContactUpdatedStreamedEvent
         * @description Fields of a contact changed; only the changed fields are in the payload (null clears one), and custom_attributes, when present, is the whole resulting set.
         */
        ContactUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "contact.updated";
            /** @constant */
            aggregate_type: "contact";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                external_id?: string | null;
                /** @description Personal data: null once erased. */
                email?: string | null;
                /** @description Personal data: null once erased. */
                name?: string | null;
                /** @description Personal data: null once erased. */
                phone?: string | null;
                /** @description Personal data: null once erased. */
                custom_attributes?: {
                    [key: string]: string | number | boolean;
                } | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** Conversation */
        Conversation: {
            /** @constant */
            type: "conversation";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            channel_id: string;
            /** Format: uuid */
            contact_id: string;
            contact: components["schemas"]["ContactRef"] | null;
            external_id: string | null;
            subject: string | null;
            /** @enum {string} */
            state: "open" | "closed" | "snoozed";
            /** Format: date-time */
            snoozed_until: string | null;
            /** Format: uuid */
            assignee_id: string | null;
            team_id: string | null;
            /** @enum {string} */
            priority: "low" | "normal" | "high" | "urgent";
            /** @description Values of the workspace's conversation attributes, by name: a string (also `date`, YYYY-MM-DD, and `list`), a number or a boolean. Personal data: cleared when the contact is erased. */
            custom_attributes: {
                [key: string]: string | number | boolean;
            };
            /** @description Its tags by id and current name, by name. */
            tags: components["schemas"]["TagRef"][];
            parts_count: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            last_part_at: string;
            /**
             * Format: uuid
             * @description The conversation this one was merged into: it is closed and read-only (POST /api/conversations/{id}/merge).
             */
            merged_into: string | null;
            rating: components["schemas"]["ConversationRating"] | null;
            sla: components["schemas"]["ConversationSla"] | null;
            /** @description Its response statistics; null only in a past state (`?as_of_seq=`), which they are not kept for. */
            statistics: components["schemas"]["ConversationStatistics"] | null;
        };
        /** ConversationAttribute */
        ConversationAttribute: {
            /** @constant */
            type: "conversation_attribute";
            /** Format: uuid */
            id: string;
            /** @description Unique in the workspace; search names it as `custom_attributes.<name>`. */
            name: string;
            /** @enum {string} */
            data_type: "string" | "integer" | "float" | "boolean" | "date" | "list";
            options: string[] | null;
            description: string | null;
            archived: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * ConversationAttributeCreatedFeedEvent
         * @description A conversation attribute was defined: its name (unique in the workspace), its data type and, for a `list`, its options. Conversations may then carry a value of it.
         */
        ConversationAttributeCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_attribute.created";
            /** @constant */
            aggregate_type: "conversation_attribute";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                data_type: "string" | "integer" | "float" | "boolean" | "date" | "list";
                options: string[] | null;
                description: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationAttributeCreatedStreamedEvent
         * @description A conversation attribute was defined: its name (unique in the workspace), its data type and, for a `list`, its options. Conversations may then carry a value of it.
         */
        ConversationAttributeCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_attribute.created";
            /** @constant */
            aggregate_type: "conversation_attribute";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                data_type: "string" | "integer" | "float" | "boolean" | "date" | "list";
                options: string[] | null;
                description: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationAttributeDeletedFeedEvent
         * @description A definition was deleted (only one no conversation holds a value of); its name may be defined again.
         */
        ConversationAttributeDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_attribute.deleted";
            /** @constant */
            aggregate_type: "conversation_attribute";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationAttributeDeletedStreamedEvent
         * @description A definition was deleted (only one no conversation holds a value of); its name may be defined again.
         */
        ConversationAttributeDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_attribute.deleted";
            /** @constant */
            aggregate_type: "conversation_attribute";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationAttributeList
         * @description Every conversation attribute of the workspace (at most 100), by name: unpaginated.
         */
        ConversationAttributeList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["ConversationAttribute"][];
        };
        /**
         * ConversationAttributeUpdatedFeedEvent
         * @description A definition changed: only the changed fields are in the payload. An archived attribute keeps its values on conversations but takes no new ones.
         */
        ConversationAttributeUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_attribute.updated";
            /** @constant */
            aggregate_type: "conversation_attribute";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                options?: string[] | null;
                description?: string | null;
                archived?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationAttributeUpdatedStreamedEvent
         * @description A definition changed: only the changed fields are in the payload. An archived attribute keeps its values on conversations but takes no new ones.
         */
        ConversationAttributeUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_attribute.updated";
            /** @constant */
            aggregate_type: "conversation_attribute";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                options?: string[] | null;
                description?: string | null;
                archived?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationAttributesUpdatedFeedEvent
         * @description A conversation's custom attribute values changed (PUT /api/conversations/{id}). `custom_attributes` is the whole resulting set, sealed as personal data under the conversation's key (null once its contact is erased); `changed` names the attributes set or removed.
         */
        ConversationAttributesUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.attributes_updated";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** @description Personal data: null once erased. */
                custom_attributes: {
                    [key: string]: string | number | boolean;
                } | null;
                changed: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationAttributesUpdatedStreamedEvent
         * @description A conversation's custom attribute values changed (PUT /api/conversations/{id}). `custom_attributes` is the whole resulting set, sealed as personal data under the conversation's key (null once its contact is erased); `changed` names the attributes set or removed.
         */
        ConversationAttributesUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.attributes_updated";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** @description Personal data: null once erased. */
                custom_attributes: {
                    [key: string]: string | number | boolean;
                } | null;
                changed: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationCreatedFeedEvent
         * @description A conversation was opened: by a bridge's first inbound post of a thread (source inbound) or by a teammate (source teammate). Its first part follows in the same command. `external_id` is the bridge's thread id: personal (it is often the customer's handle or number), null once the contact is erased.
         */
        ConversationCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.created";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                channel_id: string;
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                external_id: string | null;
                /** @description Personal data: null once erased. */
                subject: string | null;
                /** @constant */
                state: "open";
                assignee_id: string | null;
                team_id: string | null;
                source: "inbound" | "teammate";
                priority?: "low" | "normal" | "high" | "urgent";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationCreatedStreamedEvent
         * @description A conversation was opened: by a bridge's first inbound post of a thread (source inbound) or by a teammate (source teammate). Its first part follows in the same command. `external_id` is the bridge's thread id: personal (it is often the customer's handle or number), null once the contact is erased.
         */
        ConversationCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.created";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                channel_id: string;
                /** Format: uuid */
                contact_id: string;
                /** @description Personal data: null once erased. */
                external_id: string | null;
                /** @description Personal data: null once erased. */
                subject: string | null;
                /** @constant */
                state: "open";
                assignee_id: string | null;
                team_id: string | null;
                source: "inbound" | "teammate";
                priority?: "low" | "normal" | "high" | "urgent";
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ConversationList */
        ConversationList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Conversation"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * ConversationMentionedFeedEvent
         * @description A note mentioned a member (its `mentions`): one event per member, right after the note's conversation_part.created, in the same command. Ids only; the member finds it in `GET /api/me/mentions`.
         */
        ConversationMentionedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.mentioned";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                member_id: string;
                mentioned_by: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationMentionedStreamedEvent
         * @description A note mentioned a member (its `mentions`): one event per member, right after the note's conversation_part.created, in the same command. Ids only; the member finds it in `GET /api/me/mentions`.
         */
        ConversationMentionedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.mentioned";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                member_id: string;
                mentioned_by: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationMergedFeedEvent
         * @description A conversation was merged into another of the same channel (`into`): it is closed (a `close` part comes first, unless it was closed already) and read-only from now on, and a later message on its thread (a bridge's post, an e-mail answering its messages) is filed in `into`. `into` gets a part of type `merged` naming it (`merged_from`) in the same command. Its parts stay where they are. Ids only.
         */
        ConversationMergedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.merged";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                into: string;
                merged_by: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationMergedStreamedEvent
         * @description A conversation was merged into another of the same channel (`into`): it is closed (a `close` part comes first, unless it was closed already) and read-only from now on, and a later message on its thread (a bridge's post, an e-mail answering its messages) is filed in `into`. `into` gets a part of type `merged` naming it (`merged_from`) in the same command. Its parts stay where they are. Ids only.
         */
        ConversationMergedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.merged";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                into: string;
                merged_by: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ConversationPart */
        ConversationPart: {
            /** @constant */
            type: "conversation_part";
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            part_type: "message" | "comment" | "note" | "close" | "open" | "snoozed" | "assignment" | "priority" | "merged";
            body: string | null;
            author: components["schemas"]["Author"];
            /** @description The bridge's message id, for inbound messages that carried one. */
            external_id: string | null;
            attachments: components["schemas"]["Attachment"][];
            /** @description true once the content is gone (redacted, unsent or erased with the contact): body is null and attachments empty. */
            redacted: boolean;
            /**
             * @description present when its author retracted it (unsend)
             * @constant
             */
            unsent?: true;
            /** Format: date-time */
            sent_at?: string;
            /** @enum {string} */
            state?: "open" | "closed" | "snoozed";
            /** Format: date-time */
            snoozed_until?: string | null;
            /** Format: uuid */
            assignee_id?: string | null;
            team_id?: string | null;
            /** @enum {string} */
            priority?: "low" | "normal" | "high" | "urgent";
            assigned_by?: components["schemas"]["AssignedBy"];
            /** Format: uuid */
            merged_from?: string;
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartCreatedFeedEvent
         * @description A part was added to a conversation: a customer message, a teammate comment (sent to the channel) or note, or a state change (close, open, snoozed, assignment, priority). State changes carry the resulting state. An assignment routing made (a team's assignment rule, for a new or reopened unassigned conversation, in the same command) is authored by `{type: 'system', id: 'routing'}` and carries `assigned_by: {rule, team_id}`.
         */
        ConversationPartCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.created";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                part_type: "message" | "comment" | "note" | "close" | "open" | "snoozed" | "assignment" | "priority" | "merged";
                /** Format: uuid */
                channel_id: string;
                author: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
                /** @description Personal data: null once erased. */
                body: string | null;
                external_id?: string;
                /** @description Personal data: null once erased. */
                attachments?: {
                    url: string;
                    /** Format: uuid */
                    upload_id?: string;
                    download_url?: string;
                    name?: string;
                    content_type?: string;
                    size?: number;
                }[] | null;
                upload_ids?: string[];
                /** Format: uuid */
                merged_from?: string;
                /** Format: date-time */
                sent_at?: string;
                state?: "open" | "closed" | "snoozed";
                snoozed_until?: string | null;
                assignee_id?: string | null;
                team_id?: string | null;
                priority?: "low" | "normal" | "high" | "urgent";
                /** @description On an assignment part that routing appended (author `{type: 'system', id: 'routing'}`): the team's assignment rule that chose `assignee_id` (`round_robin` or `balanced`) and the team. Absent on assignments a teammate or API key made. */
                assigned_by?: {
                    rule: "round_robin" | "balanced";
                    /** Format: uuid */
                    team_id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartCreatedStreamedEvent
         * @description A part was added to a conversation: a customer message, a teammate comment (sent to the channel) or note, or a state change (close, open, snoozed, assignment, priority). State changes carry the resulting state. An assignment routing made (a team's assignment rule, for a new or reopened unassigned conversation, in the same command) is authored by `{type: 'system', id: 'routing'}` and carries `assigned_by: {rule, team_id}`.
         */
        ConversationPartCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.created";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                part_type: "message" | "comment" | "note" | "close" | "open" | "snoozed" | "assignment" | "priority" | "merged";
                /** Format: uuid */
                channel_id: string;
                author: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
                /** @description Personal data: null once erased. */
                body: string | null;
                external_id?: string;
                /** @description Personal data: null once erased. */
                attachments?: {
                    url: string;
                    /** Format: uuid */
                    upload_id?: string;
                    download_url?: string;
                    name?: string;
                    content_type?: string;
                    size?: number;
                }[] | null;
                upload_ids?: string[];
                /** Format: uuid */
                merged_from?: string;
                /** Format: date-time */
                sent_at?: string;
                state?: "open" | "closed" | "snoozed";
                snoozed_until?: string | null;
                assignee_id?: string | null;
                team_id?: string | null;
                priority?: "low" | "normal" | "high" | "urgent";
                /** @description On an assignment part that routing appended (author `{type: 'system', id: 'routing'}`): the team's assignment rule that chose `assignee_id` (`round_robin` or `balanced`) and the team. Absent on assignments a teammate or API key made. */
                assigned_by?: {
                    rule: "round_robin" | "balanced";
                    /** Format: uuid */
                    team_id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartDeliveryFailedFeedEvent
         * @description A teammate's reply on an e-mail channel could not be delivered: the relay refused it for good (`reason` `rejected`, a 5xx; `status` is the SMTP code) or a bounce (a delivery status notification) came back for it (`reason` `bounced`). `diagnostic` is the relay's or the bounce's answer, sealed under the part's data key (it may name the recipient).
         */
        ConversationPartDeliveryFailedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.delivery_failed";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                reason: "rejected" | "bounced";
                status: number | null;
                /** @description Personal data: null once erased. */
                diagnostic: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartDeliveryFailedStreamedEvent
         * @description A teammate's reply on an e-mail channel could not be delivered: the relay refused it for good (`reason` `rejected`, a 5xx; `status` is the SMTP code) or a bounce (a delivery status notification) came back for it (`reason` `bounced`). `diagnostic` is the relay's or the bounce's answer, sealed under the part's data key (it may name the recipient).
         */
        ConversationPartDeliveryFailedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.delivery_failed";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                reason: "rejected" | "bounced";
                status: number | null;
                /** @description Personal data: null once erased. */
                diagnostic: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartRedactedFeedEvent
         * @description A part's content was redacted: its data key was destroyed, so its body and attachments read as null everywhere from now on. The part keeps its id and place. Ids only.
         */
        ConversationPartRedactedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.redacted";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                redacted_by: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartRedactedStreamedEvent
         * @description A part's content was redacted: its data key was destroyed, so its body and attachments read as null everywhere from now on. The part keeps its id and place. Ids only.
         */
        ConversationPartRedactedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.redacted";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                redacted_by: {
                    type: "contact" | "member" | "api_key" | "system";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartUnsentFeedEvent
         * @description Its author retracted a comment within the unsend window: its content is destroyed like a redaction, and the channel's webhook_url gets this event so the bridge can retract the message there. Ids only.
         */
        ConversationPartUnsentFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.unsent";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                external_id: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationPartUnsentStreamedEvent
         * @description Its author retracted a comment within the unsend window: its content is destroyed like a redaction, and the channel's webhook_url gets this event so the bridge can retract the message there. Ids only.
         */
        ConversationPartUnsentStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation_part.unsent";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                external_id: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ConversationPartWithConversation */
        ConversationPartWithConversation: {
            /** @constant */
            type: "conversation_part";
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            part_type: "message" | "comment" | "note" | "close" | "open" | "snoozed" | "assignment" | "priority" | "merged";
            body: string | null;
            author: components["schemas"]["Author"];
            /** @description The bridge's message id, for inbound messages that carried one. */
            external_id: string | null;
            attachments: components["schemas"]["Attachment"][];
            /** @description true once the content is gone (redacted, unsent or erased with the contact): body is null and attachments empty. */
            redacted: boolean;
            /**
             * @description present when its author retracted it (unsend)
             * @constant
             */
            unsent?: true;
            /** Format: date-time */
            sent_at?: string;
            /** @enum {string} */
            state?: "open" | "closed" | "snoozed";
            /** Format: date-time */
            snoozed_until?: string | null;
            /** Format: uuid */
            assignee_id?: string | null;
            team_id?: string | null;
            /** @enum {string} */
            priority?: "low" | "normal" | "high" | "urgent";
            assigned_by?: components["schemas"]["AssignedBy"];
            /** Format: uuid */
            merged_from?: string;
            /** Format: date-time */
            created_at: string;
            conversation: components["schemas"]["Conversation"];
        };
        /**
         * ConversationRatedFeedEvent
         * @description A customer rated a conversation (CSAT, 1 to 5), through the API or the channel's bridge. One rating per conversation: a later one replaces it (`replaces` names the rating it replaced). `assignee_id` and `team_id` are the conversation's when it was rated. `rated_at`, on a rating the bridge posted, is the time the customer gave it (signed by the bridge; a rating older than the one in force is not recorded); otherwise the rating's time is the event's. The remark is personal content, sealed under the rating's key, which the contact's erasure destroys.
         */
        ConversationRatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.rated";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                rating_id: string;
                score: number;
                /** @description Personal data: null once erased. */
                remark: string | null;
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                channel_id: string;
                assignee_id: string | null;
                team_id: string | null;
                rated_by: {
                    type: "contact" | "member" | "api_key";
                    id: string;
                };
                replaces: string | null;
                /** Format: date-time */
                rated_at?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationRatedStreamedEvent
         * @description A customer rated a conversation (CSAT, 1 to 5), through the API or the channel's bridge. One rating per conversation: a later one replaces it (`replaces` names the rating it replaced). `assignee_id` and `team_id` are the conversation's when it was rated. `rated_at`, on a rating the bridge posted, is the time the customer gave it (signed by the bridge; a rating older than the one in force is not recorded); otherwise the rating's time is the event's. The remark is personal content, sealed under the rating's key, which the contact's erasure destroys.
         */
        ConversationRatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.rated";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                rating_id: string;
                score: number;
                /** @description Personal data: null once erased. */
                remark: string | null;
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                channel_id: string;
                assignee_id: string | null;
                team_id: string | null;
                rated_by: {
                    type: "contact" | "member" | "api_key";
                    id: string;
                };
                replaces: string | null;
                /** Format: date-time */
                rated_at?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ConversationRating */
        ConversationRating: {
            /** @constant */
            type: "conversation_rating";
            /** Format: uuid */
            id: string;
            score: number;
            /** @description The customer's words: personal data, null once the contact is erased. */
            remark: string | null;
            /** @enum {string} */
            source: "api" | "channel";
            /** Format: date-time */
            rated_at: string;
        };
        /** ConversationRatingGiven */
        ConversationRatingGiven: {
            /** @constant */
            type: "conversation_rating";
            /** Format: uuid */
            id: string;
            score: number;
            /** @description The customer's words: personal data, null once the contact is erased. */
            remark: string | null;
            /** @enum {string} */
            source: "api" | "channel";
            /** Format: date-time */
            rated_at: string;
            /** Format: uuid */
            conversation_id: string;
        };
        /**
         * ConversationSla
         * @description The SLA policy that applies and its pending due dates (null once a target is met or breached, or while the resolution clock is paused); settled targets in breaches and met. Null when no policy applies, in a past state (`?as_of_seq=`), and on a new conversation until the SLA worker has looked at it (within about a second).
         */
        ConversationSla: {
            /** Format: uuid */
            policy_id: string | null;
            /** Format: date-time */
            first_response_due_at: string | null;
            /** Format: date-time */
            next_response_due_at: string | null;
            /** Format: date-time */
            resolution_due_at: string | null;
            resolution_paused: boolean;
            breaches: {
                /** @enum {string} */
                target: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                due_at: string;
                /** Format: date-time */
                breached_at: string;
            }[];
            met: {
                /** @enum {string} */
                target: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                due_at: string;
                /** Format: date-time */
                met_at: string;
            }[];
        };
        /** ConversationSlaAnswer */
        ConversationSlaAnswer: {
            /** @constant */
            type: "conversation_sla";
            /** Format: uuid */
            conversation_id: string;
            sla: components["schemas"]["ConversationSla"] | null;
        };
        /**
         * ConversationSlaAppliedFeedEvent
         * @description A conversation's SLA changed: the policy that applies (null: none any more) and its pending due dates. Sent when a policy first applies and whenever a due date moves: a next-response target starts (a customer message after a teammate reply), the resolution clock pauses (snoozed: due null, the business seconds left kept) or resumes, the conversation's priority, team or channel makes another policy apply.
         */
        ConversationSlaAppliedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.sla_applied";
            /** @constant */
            aggregate_type: "conversation_sla";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                policy_id: string | null;
                first_response_due_at: string | null;
                next_response_due_at: string | null;
                next_response_since: string | null;
                resolution_due_at: string | null;
                resolution_remaining_seconds: number | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationSlaAppliedStreamedEvent
         * @description A conversation's SLA changed: the policy that applies (null: none any more) and its pending due dates. Sent when a policy first applies and whenever a due date moves: a next-response target starts (a customer message after a teammate reply), the resolution clock pauses (snoozed: due null, the business seconds left kept) or resumes, the conversation's priority, team or channel makes another policy apply.
         */
        ConversationSlaAppliedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.sla_applied";
            /** @constant */
            aggregate_type: "conversation_sla";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                policy_id: string | null;
                first_response_due_at: string | null;
                next_response_due_at: string | null;
                next_response_since: string | null;
                resolution_due_at: string | null;
                resolution_remaining_seconds: number | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationSlaBreachedFeedEvent
         * @description A target was missed: sent by the SLA worker at the deadline (within its poll interval, about a second), whether or not anyone touches the conversation; once per target (per customer wait, for next_response).
         */
        ConversationSlaBreachedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.sla_breached";
            /** @constant */
            aggregate_type: "conversation_sla";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                policy_id: string;
                target: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                due_at: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationSlaBreachedStreamedEvent
         * @description A target was missed: sent by the SLA worker at the deadline (within its poll interval, about a second), whether or not anyone touches the conversation; once per target (per customer wait, for next_response).
         */
        ConversationSlaBreachedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.sla_breached";
            /** @constant */
            aggregate_type: "conversation_sla";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                policy_id: string;
                target: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                due_at: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationSlaMetFeedEvent
         * @description A target was met in time: the first teammate reply (first_response), the teammate reply ending a customer wait (next_response), or the close (resolution), at or before its due date.
         */
        ConversationSlaMetFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.sla_met";
            /** @constant */
            aggregate_type: "conversation_sla";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                policy_id: string;
                target: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                due_at: string;
                /** Format: date-time */
                met_at: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationSlaMetStreamedEvent
         * @description A target was met in time: the first teammate reply (first_response), the teammate reply ending a customer wait (next_response), or the close (resolution), at or before its due date.
         */
        ConversationSlaMetStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.sla_met";
            /** @constant */
            aggregate_type: "conversation_sla";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                policy_id: string;
                target: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                due_at: string;
                /** Format: date-time */
                met_at: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationStatistics
         * @description Response statistics: the first teammate reply (a comment) and its seconds after creation, the last one, the first and last close and the resolution seconds (creation to the last close), in calendar seconds and in business seconds on the workspace's business hours (null without them), reopens, and replies by teammates and by the customer.
         */
        ConversationStatistics: {
            /** Format: date-time */
            first_response_at: string | null;
            first_response_seconds: number | null;
            first_response_business_seconds: number | null;
            /** Format: date-time */
            last_response_at: string | null;
            /** Format: date-time */
            first_closed_at: string | null;
            /** Format: date-time */
            last_closed_at: string | null;
            resolution_seconds: number | null;
            resolution_business_seconds: number | null;
            reopens: number;
            teammate_replies: number;
            customer_replies: number;
        };
        /** ConversationStatisticsAnswer */
        ConversationStatisticsAnswer: {
            /** @constant */
            type: "conversation_statistics";
            /** Format: uuid */
            conversation_id: string;
            statistics: components["schemas"]["ConversationStatistics"];
        };
        /**
         * ConversationTaggedFeedEvent
         * @description A tag was added to a conversation (a delta: tagging it again appends nothing). `name` is the tag's name at the time; the catalog has the current one.
         */
        ConversationTaggedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.tagged";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationTaggedStreamedEvent
         * @description A tag was added to a conversation (a delta: tagging it again appends nothing). `name` is the tag's name at the time; the catalog has the current one.
         */
        ConversationTaggedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.tagged";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationUntaggedFeedEvent
         * @description A tag was taken off a conversation (a delta: untagging what is not there appends nothing). A deleted tag comes off through tag.deleted instead.
         */
        ConversationUntaggedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.untagged";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ConversationUntaggedStreamedEvent
         * @description A tag was taken off a conversation (a delta: untagging what is not there appends nothing). A deleted tag comes off through tag.deleted instead.
         */
        ConversationUntaggedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "conversation.untagged";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                tag_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ConversationWithParts */
        ConversationWithParts: {
            /** @constant */
            type: "conversation";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            channel_id: string;
            /** Format: uuid */
            contact_id: string;
            contact: components["schemas"]["ContactRef"] | null;
            external_id: string | null;
            subject: string | null;
            /** @enum {string} */
            state: "open" | "closed" | "snoozed";
            /** Format: date-time */
            snoozed_until: string | null;
            /** Format: uuid */
            assignee_id: string | null;
            team_id: string | null;
            /** @enum {string} */
            priority: "low" | "normal" | "high" | "urgent";
            /** @description Values of the workspace's conversation attributes, by name: a string (also `date`, YYYY-MM-DD, and `list`), a number or a boolean. Personal data: cleared when the contact is erased. */
            custom_attributes: {
                [key: string]: string | number | boolean;
            };
            /** @description Its tags by id and current name, by name. */
            tags: components["schemas"]["TagRef"][];
            parts_count: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            last_part_at: string;
            /**
             * Format: uuid
             * @description The conversation this one was merged into: it is closed and read-only (POST /api/conversations/{id}/merge).
             */
            merged_into: string | null;
            rating: components["schemas"]["ConversationRating"] | null;
            sla: components["schemas"]["ConversationSla"] | null;
            /** @description Its response statistics; null only in a past state (`?as_of_seq=`), which they are not kept for. */
            statistics: components["schemas"]["ConversationStatistics"] | null;
            parts: components["schemas"]["ConversationPart"][];
        };
        /** CsatByAssignee */
        CsatByAssignee: {
            /** Format: uuid */
            assignee_id: string | null;
            count: number;
            /** @description The mean score, 1 to 5 (two decimals); null without ratings. */
            average: number | null;
            satisfied: number;
            /** @description satisfied / count: the share of ratings of 4 or 5 (0 to 1); null without ratings. */
            csat: number | null;
            scores: components["schemas"]["CsatScoreCounts"];
        };
        /** CsatByTeam */
        CsatByTeam: {
            team_id: string | null;
            count: number;
            /** @description The mean score, 1 to 5 (two decimals); null without ratings. */
            average: number | null;
            satisfied: number;
            /** @description satisfied / count: the share of ratings of 4 or 5 (0 to 1); null without ratings. */
            csat: number | null;
            scores: components["schemas"]["CsatScoreCounts"];
        };
        /**
         * CsatReport
         * @description Ratings given in [since, until), each conversation counted once with its latest rating and credited to the team and assignee it had when rated (null: none). Sorted by count, most first. `satisfied` counts 4s and 5s; `csat` is their share.
         */
        CsatReport: {
            /** @constant */
            type: "csat_report";
            /** Format: date-time */
            since: string | null;
            /** Format: date-time */
            until: string | null;
            overall: components["schemas"]["CsatStats"];
            by_team: components["schemas"]["CsatByTeam"][];
            by_assignee: components["schemas"]["CsatByAssignee"][];
        };
        /** CsatScoreCounts */
        CsatScoreCounts: {
            1: number;
            2: number;
            3: number;
            4: number;
            5: number;
        };
        /** CsatStats */
        CsatStats: {
            count: number;
            /** @description The mean score, 1 to 5 (two decimals); null without ratings. */
            average: number | null;
            satisfied: number;
            /** @description satisfied / count: the share of ratings of 4 or 5 (0 to 1); null without ratings. */
            csat: number | null;
            scores: components["schemas"]["CsatScoreCounts"];
        };
        /** DeletedAutomationRule */
        DeletedAutomationRule: {
            /** @constant */
            type: "automation_rule";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedChannel */
        DeletedChannel: {
            /** @constant */
            type: "channel";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedCompany */
        DeletedCompany: {
            /** @constant */
            type: "company";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedContactNote */
        DeletedContactNote: {
            /** @constant */
            type: "contact_note";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedConversationAttribute */
        DeletedConversationAttribute: {
            /** @constant */
            type: "conversation_attribute";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedEmailDomain */
        DeletedEmailDomain: {
            /** @constant */
            type: "email_domain";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedOutbound */
        DeletedOutbound: {
            /** @constant */
            type: "outbound";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedSavedReply */
        DeletedSavedReply: {
            /** @constant */
            type: "saved_reply";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedSlaPolicy */
        DeletedSlaPolicy: {
            /** @constant */
            type: "sla_policy";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedTag */
        DeletedTag: {
            /** @constant */
            type: "tag";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedTeam */
        DeletedTeam: {
            /** @constant */
            type: "team";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedView */
        DeletedView: {
            /** @constant */
            type: "view";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeletedWebhookEndpoint */
        DeletedWebhookEndpoint: {
            /** @constant */
            type: "webhook_endpoint";
            /** Format: uuid */
            id: string;
            /** @constant */
            deleted: true;
        };
        /** DeliveryAttempt */
        DeliveryAttempt: {
            attempt: number;
            /** Format: date-time */
            at: string;
            status: number | null;
            error: string | null;
            duration_ms: number;
        };
        /** EmailAddress */
        EmailAddress: {
            address: string;
            name: string | null;
        };
        /** EmailAttachment */
        EmailAttachment: {
            name: string | null;
            content_type: string;
            size: number;
        };
        /** EmailAuthentication */
        EmailAuthentication: {
            /** @enum {string} */
            spf: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
            /** @enum {string} */
            dkim: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
            /** @enum {string} */
            dmarc: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
        };
        /** EmailDelivery */
        EmailDelivery: {
            /** @enum {string} */
            status: "sent" | "failed";
            code: number | null;
            error: string | null;
        };
        /** EmailDomain */
        EmailDomain: {
            /** @constant */
            type: "email_domain";
            /** Format: uuid */
            id: string;
            /** @description Lower case, without a trailing dot. */
            domain: string;
            /** @enum {string} */
            status: "pending" | "verified";
            txt_record: components["schemas"]["EmailDomainTxtRecord"];
            /** Format: date-time */
            verified_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * EmailDomainCreatedFeedEvent
         * @description A workspace asked to verify an e-mail domain: it is `pending` until the TXT record `_conversation-service.<domain>` holds `conversation-service-verification=<token>`.
         */
        EmailDomainCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email_domain.created";
            /** @constant */
            aggregate_type: "email_domain";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                domain: string;
                token: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailDomainCreatedStreamedEvent
         * @description A workspace asked to verify an e-mail domain: it is `pending` until the TXT record `_conversation-service.<domain>` holds `conversation-service-verification=<token>`.
         */
        EmailDomainCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email_domain.created";
            /** @constant */
            aggregate_type: "email_domain";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                domain: string;
                token: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailDomainDeletedFeedEvent
         * @description An e-mail domain was deleted: another workspace may verify it. Channels made on it while it was verified keep their addresses; no new one can be made on it until it is verified again.
         */
        EmailDomainDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email_domain.deleted";
            /** @constant */
            aggregate_type: "email_domain";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                domain: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailDomainDeletedStreamedEvent
         * @description An e-mail domain was deleted: another workspace may verify it. Channels made on it while it was verified keep their addresses; no new one can be made on it until it is verified again.
         */
        EmailDomainDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email_domain.deleted";
            /** @constant */
            aggregate_type: "email_domain";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                domain: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** EmailDomainList */
        EmailDomainList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["EmailDomain"][];
            pages: components["schemas"]["Pages"];
        };
        /** EmailDomainTxtRecord */
        EmailDomainTxtRecord: {
            /** @description Where to publish the TXT record: `_conversation-service.<domain>`. */
            name: string;
            /** @description What the TXT record holds: `conversation-service-verification=<token>`. */
            value: string;
        };
        /**
         * EmailDomainVerifiedFeedEvent
         * @description The domain's TXT record held the workspace's token: the domain is the workspace's, its e-mail channels may use it, and no other workspace can verify it while it stays.
         */
        EmailDomainVerifiedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email_domain.verified";
            /** @constant */
            aggregate_type: "email_domain";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                domain: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailDomainVerifiedStreamedEvent
         * @description The domain's TXT record held the workspace's token: the domain is the workspace's, its e-mail channels may use it, and no other workspace can verify it while it stays.
         */
        EmailDomainVerifiedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email_domain.verified";
            /** @constant */
            aggregate_type: "email_domain";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                domain: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** EmailMessage */
        EmailMessage: {
            /** @constant */
            type: "email_message";
            /** Format: uuid */
            part_id: string;
            /** Format: uuid */
            conversation_id: string;
            /** Format: uuid */
            channel_id: string;
            /** @enum {string} */
            direction: "in" | "out";
            /** @description The Message-ID; null once erased. */
            message_id: string | null;
            threaded_by: ("new" | "in_reply_to" | "references" | "reply_address") | null;
            from: components["schemas"]["EmailAddress"] | null;
            to: components["schemas"]["EmailAddress"][];
            cc: components["schemas"]["EmailAddress"][];
            subject: string | null;
            /** @description The HTML part, sanitised (no scripts, styles, event handlers or remote schemes other than http, https, mailto). */
            html: string | null;
            /** @description The quoted history the reply carried, apart from its new text (the part body). */
            quoted: string | null;
            attachments: components["schemas"]["EmailAttachment"][];
            authentication: components["schemas"]["EmailAuthentication"] | null;
            suspicious: boolean;
            automated: boolean;
            delivery: components["schemas"]["EmailDelivery"] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** EmailNotFiled */
        EmailNotFiled: {
            /** @constant */
            type: "inbound_receipt";
            /** @enum {string} */
            status: "duplicate" | "bounce" | "ignored";
            /** Format: uuid */
            conversation_id: string | null;
            /** Format: uuid */
            part_id: string | null;
        };
        /** EmailReceipt */
        EmailReceipt: {
            /** @constant */
            type: "inbound_receipt";
            /** @enum {string} */
            status: "conversation_created" | "part_added";
            /** Format: uuid */
            conversation_id: string;
            /** Format: uuid */
            part_id: string;
            /** Format: uuid */
            contact_id: string;
        };
        /**
         * EmailReceivedFeedEvent
         * @description An e-mail was filed as the part `part_id` (its conversation_part.created comes just before, in the same command): the message's headers, its sanitised HTML and the quoted history separated from the new text, sealed under the part's data key. `authentication` is mailauth's verdict; `suspicious` means DMARC failed: the message opened a conversation of its own, was threaded nowhere, and is authored by an unverified contact (found or filled by the external_id `unverified-email:<address>`, without an e-mail), never by the contact holding its From address. `cc` lists the Cc addresses. `automated`: an auto-reply, a list or bulk message, or one with a null return path; nothing is ever sent to it automatically.
         */
        EmailReceivedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email.received";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                message_id_hash: string;
                threaded_by: "new" | "in_reply_to" | "references" | "reply_address";
                authentication: {
                    spf: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
                    dkim: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
                    dmarc: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
                };
                suspicious: boolean;
                automated: boolean;
                /** @description Personal data: null once erased. */
                message_id: string | null;
                /** @description Personal data: null once erased. */
                from: {
                    address: string;
                    name: string | null;
                } | null;
                /** @description Personal data: null once erased. */
                to: {
                    address: string;
                    name: string | null;
                }[] | null;
                /** @description Personal data: null once erased. */
                cc: {
                    address: string;
                    name: string | null;
                }[] | null;
                /** @description Personal data: null once erased. */
                subject: string | null;
                /** @description Personal data: null once erased. */
                html: string | null;
                /** @description Personal data: null once erased. */
                quoted: string | null;
                /** @description Personal data: null once erased. */
                attachments: {
                    name: string | null;
                    content_type: string;
                    size: number;
                }[] | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailReceivedStreamedEvent
         * @description An e-mail was filed as the part `part_id` (its conversation_part.created comes just before, in the same command): the message's headers, its sanitised HTML and the quoted history separated from the new text, sealed under the part's data key. `authentication` is mailauth's verdict; `suspicious` means DMARC failed: the message opened a conversation of its own, was threaded nowhere, and is authored by an unverified contact (found or filled by the external_id `unverified-email:<address>`, without an e-mail), never by the contact holding its From address. `cc` lists the Cc addresses. `automated`: an auto-reply, a list or bulk message, or one with a null return path; nothing is ever sent to it automatically.
         */
        EmailReceivedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email.received";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                message_id_hash: string;
                threaded_by: "new" | "in_reply_to" | "references" | "reply_address";
                authentication: {
                    spf: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
                    dkim: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
                    dmarc: "pass" | "fail" | "neutral" | "none" | "softfail" | "temperror" | "permerror" | "policy";
                };
                suspicious: boolean;
                automated: boolean;
                /** @description Personal data: null once erased. */
                message_id: string | null;
                /** @description Personal data: null once erased. */
                from: {
                    address: string;
                    name: string | null;
                } | null;
                /** @description Personal data: null once erased. */
                to: {
                    address: string;
                    name: string | null;
                }[] | null;
                /** @description Personal data: null once erased. */
                cc: {
                    address: string;
                    name: string | null;
                }[] | null;
                /** @description Personal data: null once erased. */
                subject: string | null;
                /** @description Personal data: null once erased. */
                html: string | null;
                /** @description Personal data: null once erased. */
                quoted: string | null;
                /** @description Personal data: null once erased. */
                attachments: {
                    name: string | null;
                    content_type: string;
                    size: number;
                }[] | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailSentFeedEvent
         * @description A teammate's reply (the part `part_id`) left through the SMTP relay, which accepted it. `message_id` is the one it carries, in the channel's domain; a customer's reply naming it threads into this conversation.
         */
        EmailSentFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email.sent";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                message_id_hash: string;
                relay_response: string;
                /** @description Personal data: null once erased. */
                message_id: string | null;
                /** @description Personal data: null once erased. */
                to: {
                    address: string;
                    name: string | null;
                }[] | null;
                /** @description Personal data: null once erased. */
                subject: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailSentStreamedEvent
         * @description A teammate's reply (the part `part_id`) left through the SMTP relay, which accepted it. `message_id` is the one it carries, in the channel's domain; a customer's reply naming it threads into this conversation.
         */
        EmailSentStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "email.sent";
            /** @constant */
            aggregate_type: "conversation";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
                /** Format: uuid */
                channel_id: string;
                message_id_hash: string;
                relay_response: string;
                /** @description Personal data: null once erased. */
                message_id: string | null;
                /** @description Personal data: null once erased. */
                to: {
                    address: string;
                    name: string | null;
                }[] | null;
                /** @description Personal data: null once erased. */
                subject: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** ErrorEntry */
        ErrorEntry: {
            /** @description Stable, machine-readable: see the table of codes. */
            code: string;
            /** @description For people; may change. */
            message: string;
            /** @description The field, parameter or header at fault (e.g. `contact.name`), when known. */
            field?: string;
        };
        /** ErrorList */
        ErrorList: {
            /** @constant */
            type: "error.list";
            /** @description Echoes X-Request-Id when the caller sent one; quote it when reporting a problem. */
            request_id: string;
            errors: components["schemas"]["ErrorEntry"][];
        };
        /** EventSchema */
        EventSchema: {
            /** @constant */
            type: "event_schema";
            /** @description The event type. */
            id: string;
            aggregate_type: string;
            description: string;
            /** @description A JSON Schema (2020-12) of the envelope as a webhook receiver gets it; the change feed adds the event's `id`. */
            schema: Record<string, never>;
        };
        /** EventSchemaList */
        EventSchemaList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["EventSchema"][];
        };
        /** Export */
        Export: {
            /** @constant */
            type: "export";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            contact_id: string;
            /** @enum {string} */
            status: "queued" | "running" | "completed" | "failed" | "expired";
            /** @description Share of the work done, 0 to 1 (1 once completed). */
            progress: number;
            /** @description Bytes of the file as built (null until completed). A later erasure or redaction can only make the download smaller. */
            size: number | null;
            requested_by: components["schemas"]["ExportRequester"];
            /** @description Why a failed export failed. */
            error: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            completed_at: string | null;
            /**
             * Format: date-time
             * @description When the file is deleted (EXPORT_TTL_HOURS after completion); null until completed.
             */
            expires_at: string | null;
        };
        /** ExportRequester */
        ExportRequester: {
            type: string;
            id: string;
        };
        /** ExportedConversation */
        ExportedConversation: {
            /** @constant */
            type: "conversation";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            channel_id: string;
            /** Format: uuid */
            contact_id: string;
            contact: components["schemas"]["ContactRef"] | null;
            external_id: string | null;
            subject: string | null;
            /** @enum {string} */
            state: "open" | "closed" | "snoozed";
            /** Format: date-time */
            snoozed_until: string | null;
            /** Format: uuid */
            assignee_id: string | null;
            team_id: string | null;
            /** @enum {string} */
            priority: "low" | "normal" | "high" | "urgent";
            /** @description Values of the workspace's conversation attributes, by name: a string (also `date`, YYYY-MM-DD, and `list`), a number or a boolean. Personal data: cleared when the contact is erased. */
            custom_attributes: {
                [key: string]: string | number | boolean;
            };
            /** @description Its tags by id and current name, by name. */
            tags: components["schemas"]["TagRef"][];
            parts_count: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            last_part_at: string;
            /**
             * Format: uuid
             * @description The conversation this one was merged into: it is closed and read-only (POST /api/conversations/{id}/merge).
             */
            merged_into: string | null;
            rating: components["schemas"]["ConversationRating"] | null;
            sla: components["schemas"]["ConversationSla"] | null;
            /** @description Its response statistics; null only in a past state (`?as_of_seq=`), which they are not kept for. */
            statistics: components["schemas"]["ConversationStatistics"] | null;
            parts: components["schemas"]["ConversationPart"][];
        };
        /**
         * ExportedOutboundRecipient
         * @description A recipient record of the contact: an outbound collection (named) that reached them, and how.
         */
        ExportedOutboundRecipient: {
            /** @constant */
            type: "outbound_recipient";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            collection_id: string;
            /** Format: uuid */
            contact_id: string;
            position: number;
            /** @enum {string} */
            status: "pending" | "sent" | "failed" | "skipped" | "cancelled";
            /** Format: uuid */
            conversation_id: string | null;
            error: components["schemas"]["OutboundRecipientError"] | null;
            /** Format: date-time */
            updated_at: string;
            collection_name: string;
        };
        /** FeedEvent */
        FeedEvent: components["schemas"]["ApiKeyCreatedFeedEvent"] | components["schemas"]["ApiKeyRevokedFeedEvent"] | components["schemas"]["ApiKeyRotatedFeedEvent"] | components["schemas"]["AutomationRuleCreatedFeedEvent"] | components["schemas"]["AutomationRuleDeletedFeedEvent"] | components["schemas"]["AutomationRuleReorderedFeedEvent"] | components["schemas"]["AutomationRuleUpdatedFeedEvent"] | components["schemas"]["BusinessHoursSetFeedEvent"] | components["schemas"]["ChannelCreatedFeedEvent"] | components["schemas"]["ChannelDeletedFeedEvent"] | components["schemas"]["ChannelSecretRotatedFeedEvent"] | components["schemas"]["ChannelUpdatedFeedEvent"] | components["schemas"]["CompanyCreatedFeedEvent"] | components["schemas"]["CompanyDeletedFeedEvent"] | components["schemas"]["CompanyUpdatedFeedEvent"] | components["schemas"]["ContactArchivedFeedEvent"] | components["schemas"]["ContactCompanyAttachedFeedEvent"] | components["schemas"]["ContactCompanyDetachedFeedEvent"] | components["schemas"]["ContactCreatedFeedEvent"] | components["schemas"]["ContactErasedFeedEvent"] | components["schemas"]["ContactMergedFeedEvent"] | components["schemas"]["ContactTaggedFeedEvent"] | components["schemas"]["ContactUnarchivedFeedEvent"] | components["schemas"]["ContactUntaggedFeedEvent"] | components["schemas"]["ContactUpdatedFeedEvent"] | components["schemas"]["ContactNoteCreatedFeedEvent"] | components["schemas"]["ContactNoteDeletedFeedEvent"] | components["schemas"]["ConversationAttributesUpdatedFeedEvent"] | components["schemas"]["ConversationCreatedFeedEvent"] | components["schemas"]["ConversationMentionedFeedEvent"] | components["schemas"]["ConversationMergedFeedEvent"] | components["schemas"]["ConversationRatedFeedEvent"] | components["schemas"]["ConversationSlaAppliedFeedEvent"] | components["schemas"]["ConversationSlaBreachedFeedEvent"] | components["schemas"]["ConversationSlaMetFeedEvent"] | components["schemas"]["ConversationTaggedFeedEvent"] | components["schemas"]["ConversationUntaggedFeedEvent"] | components["schemas"]["ConversationAttributeCreatedFeedEvent"] | components["schemas"]["ConversationAttributeDeletedFeedEvent"] | components["schemas"]["ConversationAttributeUpdatedFeedEvent"] | components["schemas"]["ConversationPartCreatedFeedEvent"] | components["schemas"]["ConversationPartDeliveryFailedFeedEvent"] | components["schemas"]["ConversationPartRedactedFeedEvent"] | components["schemas"]["ConversationPartUnsentFeedEvent"] | components["schemas"]["EmailReceivedFeedEvent"] | components["schemas"]["EmailSentFeedEvent"] | components["schemas"]["EmailDomainCreatedFeedEvent"] | components["schemas"]["EmailDomainDeletedFeedEvent"] | components["schemas"]["EmailDomainVerifiedFeedEvent"] | components["schemas"]["JobCanceledFeedEvent"] | components["schemas"]["JobCompletedFeedEvent"] | components["schemas"]["JobCreatedFeedEvent"] | components["schemas"]["MemberAvailabilityChangedFeedEvent"] | components["schemas"]["MemberCapacityChangedFeedEvent"] | components["schemas"]["MemberErasedFeedEvent"] | components["schemas"]["MemberInviteRevokedFeedEvent"] | components["schemas"]["MemberInvitedFeedEvent"] | components["schemas"]["MemberJoinedFeedEvent"] | components["schemas"]["MemberRemovedFeedEvent"] | components["schemas"]["MemberRoleChangedFeedEvent"] | components["schemas"]["OutboundCancelledFeedEvent"] | components["schemas"]["OutboundCreatedFeedEvent"] | components["schemas"]["OutboundDeletedFeedEvent"] | components["schemas"]["OutboundScheduledFeedEvent"] | components["schemas"]["OutboundSendingFeedEvent"] | components["schemas"]["OutboundSentFeedEvent"] | components["schemas"]["OutboundUpdatedFeedEvent"] | components["schemas"]["OutboundRecipientFailedFeedEvent"] | components["schemas"]["OutboundRecipientSentFeedEvent"] | components["schemas"]["OutboundRecipientSkippedFeedEvent"] | components["schemas"]["SavedReplyCreatedFeedEvent"] | components["schemas"]["SavedReplyDeletedFeedEvent"] | components["schemas"]["SavedReplyUpdatedFeedEvent"] | components["schemas"]["SlaPolicyCreatedFeedEvent"] | components["schemas"]["SlaPolicyDeletedFeedEvent"] | components["schemas"]["SlaPolicyUpdatedFeedEvent"] | components["schemas"]["TagCreatedFeedEvent"] | components["schemas"]["TagDeletedFeedEvent"] | components["schemas"]["TagRenamedFeedEvent"] | components["schemas"]["TeamAssignmentChangedFeedEvent"] | components["schemas"]["TeamCreatedFeedEvent"] | components["schemas"]["TeamDeletedFeedEvent"] | components["schemas"]["TeamRenamedFeedEvent"] | components["schemas"]["TeamRosterChangedFeedEvent"] | components["schemas"]["UploadAttachedFeedEvent"] | components["schemas"]["UploadCreatedFeedEvent"] | components["schemas"]["UploadExpiredFeedEvent"] | components["schemas"]["ViewCreatedFeedEvent"] | components["schemas"]["ViewDeletedFeedEvent"] | components["schemas"]["ViewUpdatedFeedEvent"] | components["schemas"]["WebhookEndpointCreatedFeedEvent"] | components["schemas"]["WebhookEndpointDeletedFeedEvent"] | components["schemas"]["WebhookEndpointUpdatedFeedEvent"] | components["schemas"]["WorkspaceCreatedFeedEvent"];
        /** FeedEventList */
        FeedEventList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["FeedEvent"][];
            pages: components["schemas"]["Pages"];
        };
        /** HistoryEvent */
        HistoryEvent: {
            /** @description The event type (docs/events.md). */
            type: string;
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            tenant_id: string;
            seq: number;
            aggregate_type: string;
            aggregate_id: string;
            /** @description The event's payload; personal fields opened, null where erased since. */
            payload: Record<string, never>;
            /** @description Who did it; null for events written before actors were recorded. */
            actor: components["schemas"]["Actor"] | null;
            /** @description The request that wrote it, when it came through the API. */
            request_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** HistoryEventList */
        HistoryEventList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["HistoryEvent"][];
            pages: components["schemas"]["Pages"];
        };
        /** InboundDuplicate */
        InboundDuplicate: {
            /** @constant */
            type: "inbound_receipt";
            /** @constant */
            status: "duplicate";
            /** Format: uuid */
            conversation_id: string | null;
        };
        /** InboundReceipt */
        InboundReceipt: {
            /** @constant */
            type: "inbound_receipt";
            /** @enum {string} */
            status: "conversation_created" | "part_added";
            /** Format: uuid */
            conversation_id: string;
            /** Format: uuid */
            part_id: string;
            /** Format: uuid */
            contact_id: string;
        };
        /** Invite */
        Invite: {
            /** @constant */
            type: "invite";
            /** Format: uuid */
            id: string;
            /** @description The invitee's e-mail; null once forgotten (the invite was revoked, or the member who accepted it erased). */
            email: string | null;
            /** @enum {string} */
            role: "owner" | "admin" | "agent" | "viewer";
            /** @enum {string} */
            status: "pending" | "expired" | "accepted" | "revoked";
            /** Format: uuid */
            invited_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
        };
        /**
         * InviteAcceptance
         * @description The same answer whether or not the address had an account, and whatever the password: with the password of an existing account, or any new password for an address without one, the membership is there when you sign in; with a wrong one, nothing changed and the invite still works.
         */
        InviteAcceptance: {
            /** @constant */
            type: "invite_acceptance";
            /** @constant */
            status: "accepted";
            /** @description The address the invite is for: sign in with it (POST /api/session) to reach the workspace. */
            email: string;
            workspace: components["schemas"]["Workspace"];
        };
        /** InviteList */
        InviteList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Invite"][];
            pages: components["schemas"]["Pages"];
        };
        /** Job */
        Job: {
            /** @constant */
            type: "job";
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "conversations.bulk";
            /**
             * @description `queued` until its first item has an outcome, then `running`, until `completed` (every item has one) or `canceled`.
             * @enum {string}
             */
            status: "queued" | "running" | "completed" | "canceled";
            /** @description The action, as asked. */
            action: Record<string, never>;
            total: number;
            /** @description Items whose conversation the action changed. */
            succeeded: number;
            /** @description Items the action was refused for (their error says why). */
            failed: number;
            /** @description Items the action had nothing to change on (closing a closed conversation). */
            skipped: number;
            /** @description Items not done when the job was canceled. */
            canceled: number;
            pending: number;
            created_by: components["schemas"]["JobCreator"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            finished_at: string | null;
        };
        /**
         * JobCanceledFeedEvent
         * @description A job was canceled (DELETE /api/jobs/{id}): its items not yet done are `canceled`; one under way when it was finishes.
         */
        JobCanceledFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "job.canceled";
            /** @constant */
            aggregate_type: "job";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                job_id: string;
                canceled_by: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * JobCanceledStreamedEvent
         * @description A job was canceled (DELETE /api/jobs/{id}): its items not yet done are `canceled`; one under way when it was finishes.
         */
        JobCanceledStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "job.canceled";
            /** @constant */
            aggregate_type: "job";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                job_id: string;
                canceled_by: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * JobCompletedFeedEvent
         * @description Every item of a job has its outcome: how many changed their conversation, were refused, or had nothing to change.
         */
        JobCompletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "job.completed";
            /** @constant */
            aggregate_type: "job";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                job_id: string;
                succeeded: number;
                failed: number;
                skipped: number;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * JobCompletedStreamedEvent
         * @description Every item of a job has its outcome: how many changed their conversation, were refused, or had nothing to change.
         */
        JobCompletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "job.completed";
            /** @constant */
            aggregate_type: "job";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                job_id: string;
                succeeded: number;
                failed: number;
                skipped: number;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * JobCreatedFeedEvent
         * @description A bulk action was asked for: `action` on `total` conversations, chosen by ids or by a query when it was made (the ids are kept beside the log, not in the event; the query is not kept). Each conversation's change is then its own command, with `{type: 'job', id}` as its actor, followed by `job.completed` or `job.canceled`.
         */
        JobCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "job.created";
            /** @constant */
            aggregate_type: "job";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                job_id: string;
                /** @constant */
                kind: "conversations.bulk";
                /** @description The action, as the request named it: one of assign, team, close, open, snooze, priority, tags_add, tags_remove. */
                action: {
                    [key: string]: unknown;
                };
                total: number;
                selected_by: "ids" | "query";
                created_by: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * JobCreatedStreamedEvent
         * @description A bulk action was asked for: `action` on `total` conversations, chosen by ids or by a query when it was made (the ids are kept beside the log, not in the event; the query is not kept). Each conversation's change is then its own command, with `{type: 'job', id}` as its actor, followed by `job.completed` or `job.canceled`.
         */
        JobCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "job.created";
            /** @constant */
            aggregate_type: "job";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                job_id: string;
                /** @constant */
                kind: "conversations.bulk";
                /** @description The action, as the request named it: one of assign, team, close, open, snooze, priority, tags_add, tags_remove. */
                action: {
                    [key: string]: unknown;
                };
                total: number;
                selected_by: "ids" | "query";
                created_by: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /** JobCreator */
        JobCreator: {
            /** @enum {string} */
            type: "member" | "api_key";
            id: string;
        };
        /** JobItem */
        JobItem: {
            /** @constant */
            type: "job_item";
            /** @description Its place in the job, from 0. */
            position: number;
            /** Format: uuid */
            conversation_id: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed" | "skipped" | "canceled";
            /** @description Why it failed: the code and message the same request would have been answered with. */
            error: components["schemas"]["JobItemError"] | null;
            /** Format: date-time */
            finished_at: string | null;
        };
        /** JobItemError */
        JobItemError: {
            code: string;
            message: string;
        };
        /** JobItemList */
        JobItemList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["JobItem"][];
            pages: components["schemas"]["Pages"];
        };
        /** Me */
        Me: {
            /** @constant */
            type: "me";
            user: components["schemas"]["User"];
            workspace: components["schemas"]["Workspace"];
            /** Format: uuid */
            member_id: string;
            /** @enum {string} */
            role: "owner" | "admin" | "agent" | "viewer";
            /** @description Effective scopes: the key's ∩ what the role allows now. */
            scopes: ("conversations:read" | "conversations:write" | "conversations:delete" | "contacts:read" | "contacts:write" | "contacts:delete" | "contacts:export" | "settings:read" | "settings:write" | "members:read" | "members:invite" | "events:read" | "api_keys:create" | "api_keys:revoke_own" | "api_keys:revoke_any" | "audit:read")[];
            /** @enum {string} */
            via: "api_key" | "session";
            /** Format: uuid */
            api_key_id?: string;
            /**
             * @description Your availability for routing (set it with PUT /api/me/availability): `online` members get conversations of their teams, `away` none.
             * @enum {string}
             */
            availability: "online" | "away";
            /** @description The most open conversations assigned to you that routing gives you; null: no limit. */
            capacity: number | null;
        };
        /** Member */
        Member: {
            /** @constant */
            type: "member";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            user_id: string;
            /** @description null once the member is erased */
            email: string | null;
            /** @description null once the member is erased */
            name: string | null;
            /** @enum {string} */
            role: "owner" | "admin" | "agent" | "viewer";
            /** @enum {string} */
            status: "active" | "removed";
            /** Format: date-time */
            joined_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description `online`: routing gives them new and reopened conversations of their teams (those with an assignment rule); `away`: none. Set by the member (PUT /api/me/availability); `away` until they first do.
             * @enum {string}
             */
            availability: "online" | "away";
            /** @description The most open conversations assigned to them that routing gives them; null: no limit. Set by owners and admins (PUT /api/members/{id}); assigning by hand may go past it. */
            capacity: number | null;
            /** Format: date-time */
            erased_at?: string;
        };
        /**
         * MemberAvailabilityChangedFeedEvent
         * @description A member set their own availability (PUT /api/me/availability): `online` members take conversations from their teams' assignment rules, `away` members get none (what they have stays theirs). A member is `away` until they first set it.
         */
        MemberAvailabilityChangedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.availability_changed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                from: "online" | "away";
                to: "online" | "away";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberAvailabilityChangedStreamedEvent
         * @description A member set their own availability (PUT /api/me/availability): `online` members take conversations from their teams' assignment rules, `away` members get none (what they have stays theirs). A member is `away` until they first set it.
         */
        MemberAvailabilityChangedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.availability_changed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                from: "online" | "away";
                to: "online" | "away";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberCapacityChangedFeedEvent
         * @description An owner or admin changed a member's capacity (PUT /api/members/{id}): the most open conversations assigned to them that routing gives them (`null`: no limit). Only routing heeds it; a teammate may still assign them more by hand.
         */
        MemberCapacityChangedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.capacity_changed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                from: number | null;
                to: number | null;
                /** Format: uuid */
                changed_by: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberCapacityChangedStreamedEvent
         * @description An owner or admin changed a member's capacity (PUT /api/members/{id}): the most open conversations assigned to them that routing gives them (`null`: no limit). Only routing heeds it; a teammate may still assign them more by hand.
         */
        MemberCapacityChangedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.capacity_changed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                from: number | null;
                to: number | null;
                /** Format: uuid */
                changed_by: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberErasedFeedEvent
         * @description An owner erased a removed member: the member's data key (and their invite's) was destroyed, so their name and e-mail read as null everywhere from now on. Ids only.
         */
        MemberErasedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.erased";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                invite_id: string | null;
                /** Format: uuid */
                erased_by: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberErasedStreamedEvent
         * @description An owner erased a removed member: the member's data key (and their invite's) was destroyed, so their name and e-mail read as null everywhere from now on. Ids only.
         */
        MemberErasedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.erased";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                invite_id: string | null;
                /** Format: uuid */
                erased_by: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberInviteRevokedFeedEvent
         * @description A pending invite was revoked: by a member (`reason` `revoked`), or because its inviter was removed or demoted to a role that may no longer grant it (`inviter_removed`, `inviter_demoted`), in the same command. Its token stops working, and the invitee's e-mail is forgotten (the invite's data key is destroyed): `member.invited` reads `email: null` from now on. Ids only.
         */
        MemberInviteRevokedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.invite_revoked";
            /** @constant */
            aggregate_type: "invite";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                invite_id: string;
                /** Format: uuid */
                revoked_by: string;
                reason: "revoked" | "inviter_removed" | "inviter_demoted";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberInviteRevokedStreamedEvent
         * @description A pending invite was revoked: by a member (`reason` `revoked`), or because its inviter was removed or demoted to a role that may no longer grant it (`inviter_removed`, `inviter_demoted`), in the same command. Its token stops working, and the invitee's e-mail is forgotten (the invite's data key is destroyed): `member.invited` reads `email: null` from now on. Ids only.
         */
        MemberInviteRevokedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.invite_revoked";
            /** @constant */
            aggregate_type: "invite";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                invite_id: string;
                /** Format: uuid */
                revoked_by: string;
                reason: "revoked" | "inviter_removed" | "inviter_demoted";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberInvitedFeedEvent
         * @description An invite was sent. The token is shown once to the inviter and never enters the log.
         */
        MemberInvitedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.invited";
            /** @constant */
            aggregate_type: "invite";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                invite_id: string;
                /** @description Personal data: null once erased. */
                email: string | null;
                role: "owner" | "admin" | "agent" | "viewer";
                /** Format: uuid */
                invited_by: string;
                /** Format: date-time */
                expires_at: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberInvitedStreamedEvent
         * @description An invite was sent. The token is shown once to the inviter and never enters the log.
         */
        MemberInvitedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.invited";
            /** @constant */
            aggregate_type: "invite";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                invite_id: string;
                /** @description Personal data: null once erased. */
                email: string | null;
                role: "owner" | "admin" | "agent" | "viewer";
                /** Format: uuid */
                invited_by: string;
                /** Format: date-time */
                expires_at: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberJoinedFeedEvent
         * @description A person became a member: the owner founding the workspace, or an invitee accepting.
         */
        MemberJoinedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.joined";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                /** Format: uuid */
                user_id: string;
                /** @description Personal data: null once erased. */
                email: string | null;
                /** @description Personal data: null once erased. */
                name: string | null;
                role: "owner" | "admin" | "agent" | "viewer";
                /** Format: uuid */
                invite_id?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberJoinedStreamedEvent
         * @description A person became a member: the owner founding the workspace, or an invitee accepting.
         */
        MemberJoinedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.joined";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                /** Format: uuid */
                user_id: string;
                /** @description Personal data: null once erased. */
                email: string | null;
                /** @description Personal data: null once erased. */
                name: string | null;
                role: "owner" | "admin" | "agent" | "viewer";
                /** Format: uuid */
                invite_id?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** MemberList */
        MemberList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Member"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * MemberRemovedFeedEvent
         * @description A member was removed from the workspace; their keys and sessions stop working for it.
         */
        MemberRemovedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.removed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                /** Format: uuid */
                removed_by: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberRemovedStreamedEvent
         * @description A member was removed from the workspace; their keys and sessions stop working for it.
         */
        MemberRemovedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.removed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                /** Format: uuid */
                removed_by: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberRoleChangedFeedEvent
         * @description A member's role changed; their keys narrow or widen with it on the next request.
         */
        MemberRoleChangedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.role_changed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                from: "owner" | "admin" | "agent" | "viewer";
                to: "owner" | "admin" | "agent" | "viewer";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MemberRoleChangedStreamedEvent
         * @description A member's role changed; their keys narrow or widen with it on the next request.
         */
        MemberRoleChangedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "member.role_changed";
            /** @constant */
            aggregate_type: "member";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                member_id: string;
                from: "owner" | "admin" | "agent" | "viewer";
                to: "owner" | "admin" | "agent" | "viewer";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * Mention
         * @description A note that mentioned the caller: read the note itself with GET /api/conversations/{conversation_id}.
         */
        Mention: {
            /** @constant */
            type: "mention";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            conversation_id: string;
            /** Format: uuid */
            part_id: string;
            mentioned_by: components["schemas"]["MentionAuthor"];
            /** Format: date-time */
            created_at: string;
        };
        /**
         * MentionAuthor
         * @description The note's author.
         */
        MentionAuthor: {
            /** @enum {string} */
            type: "contact" | "member" | "api_key" | "system";
            id: string;
        };
        /** MentionList */
        MentionList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Mention"][];
            pages: components["schemas"]["Pages"];
        };
        /** NewInvite */
        NewInvite: {
            /** @constant */
            type: "invite";
            /** Format: uuid */
            id: string;
            /** @description The invitee's e-mail; null once forgotten (the invite was revoked, or the member who accepted it erased). */
            email: string | null;
            /** @enum {string} */
            role: "owner" | "admin" | "agent" | "viewer";
            /** @enum {string} */
            status: "pending" | "expired" | "accepted" | "revoked";
            /** Format: uuid */
            invited_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /**
             * @description `email`: the token went to the invitee's mailbox (the operator set SMTP_RELAY_URL) and is not in this answer; `answer`: no relay, the token is here.
             * @enum {string}
             */
            delivery: "email" | "answer";
            /** @description Only without a mail relay (`delivery: "answer"`): shown this once; pass it to the invitee, who accepts with POST /api/invites/accept. */
            token?: string;
        };
        /** Outbound */
        Outbound: {
            /** @constant */
            type: "outbound";
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            channel_id: string;
            subject: string | null;
            /** @description With its placeholders unrendered (the saved replies' placeholders). */
            body: string;
            audience: components["schemas"]["AudienceContacts"] | components["schemas"]["AudienceTags"] | components["schemas"]["AudienceQuery"];
            /** Format: date-time */
            send_at: string | null;
            /** @enum {string} */
            state: "draft" | "scheduled" | "sending" | "sent" | "cancelled";
            cancel_reason: ("requested" | "audience_too_large" | "audience_invalid") | null;
            counts: components["schemas"]["OutboundCounts"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            scheduled_at: string | null;
            /** Format: date-time */
            sending_at: string | null;
            /** Format: date-time */
            sent_at: string | null;
            /** Format: date-time */
            cancelled_at: string | null;
        };
        /**
         * OutboundCancelledFeedEvent
         * @description The collection was cancelled (`reason` `requested`; or, when a schedule fired, `audience_too_large` for an audience over the limit, `audience_invalid` for a filter query the language no longer reads). `contact_ids` are the recipients that were still pending: none of them will be sent.
         */
        OutboundCancelledFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.cancelled";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                reason: "requested" | "audience_too_large" | "audience_invalid";
                contact_ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundCancelledStreamedEvent
         * @description The collection was cancelled (`reason` `requested`; or, when a schedule fired, `audience_too_large` for an audience over the limit, `audience_invalid` for a filter query the language no longer reads). `contact_ids` are the recipients that were still pending: none of them will be sent.
         */
        OutboundCancelledStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.cancelled";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                reason: "requested" | "audience_too_large" | "audience_invalid";
                contact_ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /** OutboundCounts */
        OutboundCounts: {
            audience_size: number;
            pending: number;
            sent: number;
            failed: number;
            skipped: number;
            cancelled: number;
        };
        /**
         * OutboundCreatedFeedEvent
         * @description An outbound collection (a campaign) was created as a draft. `body` holds its placeholders unrendered.
         */
        OutboundCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.created";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                /** Format: uuid */
                channel_id: string;
                subject: string | null;
                body: string;
                audience: {
                    contact_ids: string[];
                } | {
                    tag_ids: string[];
                } | {
                    query: {
                        [key: string]: unknown;
                    };
                };
                send_at: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundCreatedStreamedEvent
         * @description An outbound collection (a campaign) was created as a draft. `body` holds its placeholders unrendered.
         */
        OutboundCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.created";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                /** Format: uuid */
                channel_id: string;
                subject: string | null;
                body: string;
                audience: {
                    contact_ids: string[];
                } | {
                    tag_ids: string[];
                } | {
                    query: {
                        [key: string]: unknown;
                    };
                };
                send_at: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundDeletedFeedEvent
         * @description A draft collection was deleted.
         */
        OutboundDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.deleted";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundDeletedStreamedEvent
         * @description A draft collection was deleted.
         */
        OutboundDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.deleted";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundList
         * @description Every outbound collection of the workspace (at most 150), newest first: unpaginated, so no `pages`.
         */
        OutboundList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Outbound"][];
        };
        /** OutboundRecipient */
        OutboundRecipient: {
            /** @constant */
            type: "outbound_recipient";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            collection_id: string;
            /** Format: uuid */
            contact_id: string;
            position: number;
            /** @enum {string} */
            status: "pending" | "sent" | "failed" | "skipped" | "cancelled";
            /** Format: uuid */
            conversation_id: string | null;
            error: components["schemas"]["OutboundRecipientError"] | null;
            /** Format: date-time */
            updated_at: string;
        };
        /** OutboundRecipientError */
        OutboundRecipientError: {
            code: string;
            message: string;
        };
        /**
         * OutboundRecipientFailedFeedEvent
         * @description A recipient could not be sent (e.g. `contact_unreachable`: an api channel needs the contact's external_id); the others go on.
         */
        OutboundRecipientFailedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound_recipient.failed";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                collection_id: string;
                /** Format: uuid */
                contact_id: string;
                code: string;
                message: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundRecipientFailedStreamedEvent
         * @description A recipient could not be sent (e.g. `contact_unreachable`: an api channel needs the contact's external_id); the others go on.
         */
        OutboundRecipientFailedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound_recipient.failed";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                collection_id: string;
                /** Format: uuid */
                contact_id: string;
                code: string;
                message: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** OutboundRecipientList */
        OutboundRecipientList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["OutboundRecipient"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * OutboundRecipientSentFeedEvent
         * @description A recipient's conversation was started (in the same transaction as its conversation.created and first part).
         */
        OutboundRecipientSentFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound_recipient.sent";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                collection_id: string;
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                conversation_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundRecipientSentStreamedEvent
         * @description A recipient's conversation was started (in the same transaction as its conversation.created and first part).
         */
        OutboundRecipientSentStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound_recipient.sent";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                collection_id: string;
                /** Format: uuid */
                contact_id: string;
                /** Format: uuid */
                conversation_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundRecipientSkippedFeedEvent
         * @description A pending recipient was skipped when its turn came: the contact was archived or erased after the audience was resolved.
         */
        OutboundRecipientSkippedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound_recipient.skipped";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                collection_id: string;
                /** Format: uuid */
                contact_id: string;
                reason: "archived" | "erased" | "unknown_contact";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundRecipientSkippedStreamedEvent
         * @description A pending recipient was skipped when its turn came: the contact was archived or erased after the audience was resolved.
         */
        OutboundRecipientSkippedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound_recipient.skipped";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                collection_id: string;
                /** Format: uuid */
                contact_id: string;
                reason: "archived" | "erased" | "unknown_contact";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundScheduledFeedEvent
         * @description Sending was asked for a future `send_at`: the audience is resolved when the schedule fires, not now.
         */
        OutboundScheduledFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.scheduled";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                /** Format: date-time */
                send_at: string;
                author: {
                    type: "member" | "api_key";
                    id: string;
                };
                /** Format: uuid */
                member_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundScheduledStreamedEvent
         * @description Sending was asked for a future `send_at`: the audience is resolved when the schedule fires, not now.
         */
        OutboundScheduledStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.scheduled";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                /** Format: date-time */
                send_at: string;
                author: {
                    type: "member" | "api_key";
                    id: string;
                };
                /** Format: uuid */
                member_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundSendingFeedEvent
         * @description Sending began: the audience was resolved, once, into one recipient per contact, in audience order. A recipient with `skipped` will not be sent (archived, erased or unknown contact); every other one is pending until the worker starts its conversation.
         */
        OutboundSendingFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.sending";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                author: {
                    type: "member" | "api_key";
                    id: string;
                };
                /** Format: uuid */
                member_id: string;
                audience_size: number;
                recipients: {
                    /** Format: uuid */
                    contact_id: string;
                    skipped?: "archived" | "erased" | "unknown_contact";
                }[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundSendingStreamedEvent
         * @description Sending began: the audience was resolved, once, into one recipient per contact, in audience order. A recipient with `skipped` will not be sent (archived, erased or unknown contact); every other one is pending until the worker starts its conversation.
         */
        OutboundSendingStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.sending";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                author: {
                    type: "member" | "api_key";
                    id: string;
                };
                /** Format: uuid */
                member_id: string;
                audience_size: number;
                recipients: {
                    /** Format: uuid */
                    contact_id: string;
                    skipped?: "archived" | "erased" | "unknown_contact";
                }[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundSentFeedEvent
         * @description Every recipient of the collection has an outcome (sent, failed or skipped): sending is over.
         */
        OutboundSentFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.sent";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                sent: number;
                failed: number;
                skipped: number;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundSentStreamedEvent
         * @description Every recipient of the collection has an outcome (sent, failed or skipped): sending is over.
         */
        OutboundSentStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.sent";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                sent: number;
                failed: number;
                skipped: number;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundUpdatedFeedEvent
         * @description A draft collection changed; only changed fields are in the payload.
         */
        OutboundUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.updated";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                /** Format: uuid */
                channel_id?: string;
                subject?: string | null;
                body?: string;
                audience?: {
                    contact_ids: string[];
                } | {
                    tag_ids: string[];
                } | {
                    query: {
                        [key: string]: unknown;
                    };
                };
                send_at?: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * OutboundUpdatedStreamedEvent
         * @description A draft collection changed; only changed fields are in the payload.
         */
        OutboundUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "outbound.updated";
            /** @constant */
            aggregate_type: "outbound";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                /** Format: uuid */
                channel_id?: string;
                subject?: string | null;
                body?: string;
                audience?: {
                    contact_ids: string[];
                } | {
                    tag_ids: string[];
                } | {
                    query: {
                        [key: string]: unknown;
                    };
                };
                send_at?: string | null;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** Pages */
        Pages: {
            /** @constant */
            type: "pages";
            per_page: number;
            /** @description null on the last page */
            next: {
                /** @description Pass as `starting_after` for the next page. */
                starting_after: string;
            } | null;
        };
        /** PasswordResetDone */
        PasswordResetDone: {
            /** @constant */
            type: "password_reset";
            /** @constant */
            status: "done";
            /** @description How many API keys of the account (in every workspace it is a member of) the reset revoked: re-key the integrations that used them. */
            api_keys_revoked: number;
        };
        /**
         * PasswordResetRequested
         * @description The same answer whether or not the address has an account: when it has one, a link valid `expires_in_minutes` is on its way to it (only the latest link works).
         */
        PasswordResetRequested: {
            /** @constant */
            type: "password_reset";
            /** @constant */
            status: "requested";
            expires_in_minutes: number;
        };
        /** RenderedReply */
        RenderedReply: {
            /** @constant */
            type: "rendered_reply";
            /** @description The body with every placeholder replaced by its value, its fallback, or "" when it has neither. */
            body: string;
            /** @description Placeholders (e.g. `contact.email`) that had no value and no fallback, each once, in order of first use. */
            undefined_variables: string[];
        };
        /**
         * ResponseTimesReport
         * @description First-response and resolution seconds (creation to the first teammate reply; creation to the last close) of the conversations created in the period: count, median and p90 (nearest rank), in calendar and in business time.
         */
        ResponseTimesReport: {
            /** @constant */
            type: "response_times_report";
            conversations: number;
            /** @description Over the conversations that have one; business: null until business hours are set. */
            first_response: {
                calendar: {
                    count: number;
                    median_seconds: number | null;
                    p90_seconds: number | null;
                };
                business: {
                    count: number;
                    median_seconds: number | null;
                    p90_seconds: number | null;
                } | null;
            };
            /** @description Over the conversations that have one; business: null until business hours are set. */
            resolution: {
                calendar: {
                    count: number;
                    median_seconds: number | null;
                    p90_seconds: number | null;
                };
                business: {
                    count: number;
                    median_seconds: number | null;
                    p90_seconds: number | null;
                } | null;
            };
        };
        /** SavedReply */
        SavedReply: {
            /** @constant */
            type: "saved_reply";
            /** Format: uuid */
            id: string;
            name: string;
            /** @description With its placeholders unrendered. */
            body: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * SavedReplyCreatedFeedEvent
         * @description A saved reply was created. `body` holds its placeholders unrendered ({{contact.name}} …).
         */
        SavedReplyCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "saved_reply.created";
            /** @constant */
            aggregate_type: "saved_reply";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                body: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SavedReplyCreatedStreamedEvent
         * @description A saved reply was created. `body` holds its placeholders unrendered ({{contact.name}} …).
         */
        SavedReplyCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "saved_reply.created";
            /** @constant */
            aggregate_type: "saved_reply";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                body: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SavedReplyDeletedFeedEvent
         * @description A saved reply was deleted; its name may be used again.
         */
        SavedReplyDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "saved_reply.deleted";
            /** @constant */
            aggregate_type: "saved_reply";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SavedReplyDeletedStreamedEvent
         * @description A saved reply was deleted; its name may be used again.
         */
        SavedReplyDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "saved_reply.deleted";
            /** @constant */
            aggregate_type: "saved_reply";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SavedReplyList
         * @description Every saved reply of the workspace (at most 150), by name: unpaginated, so no `pages`.
         */
        SavedReplyList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["SavedReply"][];
        };
        /**
         * SavedReplyUpdatedFeedEvent
         * @description A saved reply's name or body changed; only changed fields are in the payload.
         */
        SavedReplyUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "saved_reply.updated";
            /** @constant */
            aggregate_type: "saved_reply";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                body?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SavedReplyUpdatedStreamedEvent
         * @description A saved reply's name or body changed; only changed fields are in the payload.
         */
        SavedReplyUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "saved_reply.updated";
            /** @constant */
            aggregate_type: "saved_reply";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name?: string;
                body?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * Session
         * @description The signed-in user and their workspaces; the `svc_session` cookie is set with it, and a new `svc_device` cookie (the device cookie: later sign-ins from this browser are throttled on their own, see the API guide).
         */
        Session: {
            /** @constant */
            type: "session";
            user: components["schemas"]["User"];
            /** Format: date-time */
            minted_at: string;
            /** Format: date-time */
            expires_at: string;
            workspaces: components["schemas"]["SessionWorkspace"][];
        };
        /** SessionWorkspace */
        SessionWorkspace: {
            /** @constant */
            type: "workspace";
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            role: "owner" | "admin" | "agent" | "viewer";
            /** Format: uuid */
            member_id: string;
        };
        /** SlaPolicy */
        SlaPolicy: {
            /** @constant */
            type: "sla_policy";
            /** Format: uuid */
            id: string;
            name: string;
            /** @description Every given key must match (any of its values); an empty match applies to every conversation. */
            match: {
                priority?: string[];
                team_id?: string[];
                channel_id?: string[];
                /** @description The conversations filter language (as a view or a search): A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators. */
                query?: Record<string, never>;
            };
            first_response_target_seconds: number | null;
            next_response_target_seconds: number | null;
            resolution_target_seconds: number | null;
            business_hours: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * SlaPolicyCreatedFeedEvent
         * @description An SLA policy was created; it is tried after the policies created before it (the first that matches a conversation applies).
         */
        SlaPolicyCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "sla_policy.created";
            /** @constant */
            aggregate_type: "sla_policy";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                match: {
                    priority?: string[];
                    team_id?: string[];
                    channel_id?: string[];
                    /** @description A tree of the conversations filter language (see POST /api/conversations/search). */
                    query?: {
                        [key: string]: unknown;
                    };
                };
                first_response_target_seconds: number | null;
                next_response_target_seconds: number | null;
                resolution_target_seconds: number | null;
                business_hours: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SlaPolicyCreatedStreamedEvent
         * @description An SLA policy was created; it is tried after the policies created before it (the first that matches a conversation applies).
         */
        SlaPolicyCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "sla_policy.created";
            /** @constant */
            aggregate_type: "sla_policy";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                match: {
                    priority?: string[];
                    team_id?: string[];
                    channel_id?: string[];
                    /** @description A tree of the conversations filter language (see POST /api/conversations/search). */
                    query?: {
                        [key: string]: unknown;
                    };
                };
                first_response_target_seconds: number | null;
                next_response_target_seconds: number | null;
                resolution_target_seconds: number | null;
                business_hours: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SlaPolicyDeletedFeedEvent
         * @description A policy was deleted. Conversations under it lose it (or take the next matching one) when they next change.
         */
        SlaPolicyDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "sla_policy.deleted";
            /** @constant */
            aggregate_type: "sla_policy";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SlaPolicyDeletedStreamedEvent
         * @description A policy was deleted. Conversations under it lose it (or take the next matching one) when they next change.
         */
        SlaPolicyDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "sla_policy.deleted";
            /** @constant */
            aggregate_type: "sla_policy";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SlaPolicyList
         * @description Every SLA policy of the workspace, in the order they are tried: the first that matches a conversation applies.
         */
        SlaPolicyList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["SlaPolicy"][];
        };
        /**
         * SlaPolicyUpdatedFeedEvent
         * @description A policy's fields were replaced (the whole policy). Conversations take the change when they next change themselves.
         */
        SlaPolicyUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "sla_policy.updated";
            /** @constant */
            aggregate_type: "sla_policy";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                match: {
                    priority?: string[];
                    team_id?: string[];
                    channel_id?: string[];
                    /** @description A tree of the conversations filter language (see POST /api/conversations/search). */
                    query?: {
                        [key: string]: unknown;
                    };
                };
                first_response_target_seconds: number | null;
                next_response_target_seconds: number | null;
                resolution_target_seconds: number | null;
                business_hours: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * SlaPolicyUpdatedStreamedEvent
         * @description A policy's fields were replaced (the whole policy). Conversations take the change when they next change themselves.
         */
        SlaPolicyUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "sla_policy.updated";
            /** @constant */
            aggregate_type: "sla_policy";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                match: {
                    priority?: string[];
                    team_id?: string[];
                    channel_id?: string[];
                    /** @description A tree of the conversations filter language (see POST /api/conversations/search). */
                    query?: {
                        [key: string]: unknown;
                    };
                };
                first_response_target_seconds: number | null;
                next_response_target_seconds: number | null;
                resolution_target_seconds: number | null;
                business_hours: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** StreamedEvent */
        StreamedEvent: components["schemas"]["ApiKeyCreatedStreamedEvent"] | components["schemas"]["ApiKeyRevokedStreamedEvent"] | components["schemas"]["ApiKeyRotatedStreamedEvent"] | components["schemas"]["AutomationRuleCreatedStreamedEvent"] | components["schemas"]["AutomationRuleDeletedStreamedEvent"] | components["schemas"]["AutomationRuleReorderedStreamedEvent"] | components["schemas"]["AutomationRuleUpdatedStreamedEvent"] | components["schemas"]["BusinessHoursSetStreamedEvent"] | components["schemas"]["ChannelCreatedStreamedEvent"] | components["schemas"]["ChannelDeletedStreamedEvent"] | components["schemas"]["ChannelSecretRotatedStreamedEvent"] | components["schemas"]["ChannelUpdatedStreamedEvent"] | components["schemas"]["CompanyCreatedStreamedEvent"] | components["schemas"]["CompanyDeletedStreamedEvent"] | components["schemas"]["CompanyUpdatedStreamedEvent"] | components["schemas"]["ContactArchivedStreamedEvent"] | components["schemas"]["ContactCompanyAttachedStreamedEvent"] | components["schemas"]["ContactCompanyDetachedStreamedEvent"] | components["schemas"]["ContactCreatedStreamedEvent"] | components["schemas"]["ContactErasedStreamedEvent"] | components["schemas"]["ContactMergedStreamedEvent"] | components["schemas"]["ContactTaggedStreamedEvent"] | components["schemas"]["ContactUnarchivedStreamedEvent"] | components["schemas"]["ContactUntaggedStreamedEvent"] | components["schemas"]["ContactUpdatedStreamedEvent"] | components["schemas"]["ContactNoteCreatedStreamedEvent"] | components["schemas"]["ContactNoteDeletedStreamedEvent"] | components["schemas"]["ConversationAttributesUpdatedStreamedEvent"] | components["schemas"]["ConversationCreatedStreamedEvent"] | components["schemas"]["ConversationMentionedStreamedEvent"] | components["schemas"]["ConversationMergedStreamedEvent"] | components["schemas"]["ConversationRatedStreamedEvent"] | components["schemas"]["ConversationSlaAppliedStreamedEvent"] | components["schemas"]["ConversationSlaBreachedStreamedEvent"] | components["schemas"]["ConversationSlaMetStreamedEvent"] | components["schemas"]["ConversationTaggedStreamedEvent"] | components["schemas"]["ConversationUntaggedStreamedEvent"] | components["schemas"]["ConversationAttributeCreatedStreamedEvent"] | components["schemas"]["ConversationAttributeDeletedStreamedEvent"] | components["schemas"]["ConversationAttributeUpdatedStreamedEvent"] | components["schemas"]["ConversationPartCreatedStreamedEvent"] | components["schemas"]["ConversationPartDeliveryFailedStreamedEvent"] | components["schemas"]["ConversationPartRedactedStreamedEvent"] | components["schemas"]["ConversationPartUnsentStreamedEvent"] | components["schemas"]["EmailReceivedStreamedEvent"] | components["schemas"]["EmailSentStreamedEvent"] | components["schemas"]["EmailDomainCreatedStreamedEvent"] | components["schemas"]["EmailDomainDeletedStreamedEvent"] | components["schemas"]["EmailDomainVerifiedStreamedEvent"] | components["schemas"]["JobCanceledStreamedEvent"] | components["schemas"]["JobCompletedStreamedEvent"] | components["schemas"]["JobCreatedStreamedEvent"] | components["schemas"]["MemberAvailabilityChangedStreamedEvent"] | components["schemas"]["MemberCapacityChangedStreamedEvent"] | components["schemas"]["MemberErasedStreamedEvent"] | components["schemas"]["MemberInviteRevokedStreamedEvent"] | components["schemas"]["MemberInvitedStreamedEvent"] | components["schemas"]["MemberJoinedStreamedEvent"] | components["schemas"]["MemberRemovedStreamedEvent"] | components["schemas"]["MemberRoleChangedStreamedEvent"] | components["schemas"]["OutboundCancelledStreamedEvent"] | components["schemas"]["OutboundCreatedStreamedEvent"] | components["schemas"]["OutboundDeletedStreamedEvent"] | components["schemas"]["OutboundScheduledStreamedEvent"] | components["schemas"]["OutboundSendingStreamedEvent"] | components["schemas"]["OutboundSentStreamedEvent"] | components["schemas"]["OutboundUpdatedStreamedEvent"] | components["schemas"]["OutboundRecipientFailedStreamedEvent"] | components["schemas"]["OutboundRecipientSentStreamedEvent"] | components["schemas"]["OutboundRecipientSkippedStreamedEvent"] | components["schemas"]["SavedReplyCreatedStreamedEvent"] | components["schemas"]["SavedReplyDeletedStreamedEvent"] | components["schemas"]["SavedReplyUpdatedStreamedEvent"] | components["schemas"]["SlaPolicyCreatedStreamedEvent"] | components["schemas"]["SlaPolicyDeletedStreamedEvent"] | components["schemas"]["SlaPolicyUpdatedStreamedEvent"] | components["schemas"]["TagCreatedStreamedEvent"] | components["schemas"]["TagDeletedStreamedEvent"] | components["schemas"]["TagRenamedStreamedEvent"] | components["schemas"]["TeamAssignmentChangedStreamedEvent"] | components["schemas"]["TeamCreatedStreamedEvent"] | components["schemas"]["TeamDeletedStreamedEvent"] | components["schemas"]["TeamRenamedStreamedEvent"] | components["schemas"]["TeamRosterChangedStreamedEvent"] | components["schemas"]["UploadAttachedStreamedEvent"] | components["schemas"]["UploadCreatedStreamedEvent"] | components["schemas"]["UploadExpiredStreamedEvent"] | components["schemas"]["ViewCreatedStreamedEvent"] | components["schemas"]["ViewDeletedStreamedEvent"] | components["schemas"]["ViewUpdatedStreamedEvent"] | components["schemas"]["WebhookEndpointCreatedStreamedEvent"] | components["schemas"]["WebhookEndpointDeletedStreamedEvent"] | components["schemas"]["WebhookEndpointUpdatedStreamedEvent"] | components["schemas"]["WorkspaceCreatedStreamedEvent"];
        /** Tag */
        Tag: {
            /** @constant */
            type: "tag";
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * TagCreatedFeedEvent
         * @description A tag was added to the catalog (its name is unique in the workspace, ignoring case).
         */
        TagCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "tag.created";
            /** @constant */
            aggregate_type: "tag";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TagCreatedStreamedEvent
         * @description A tag was added to the catalog (its name is unique in the workspace, ignoring case).
         */
        TagCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "tag.created";
            /** @constant */
            aggregate_type: "tag";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TagDeletedFeedEvent
         * @description A tag was deleted from the catalog; its name may be used again. `conversation_ids` and `contact_ids` are what carried it and no longer do (their projections fold this one event; no untagged event is appended per conversation).
         */
        TagDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "tag.deleted";
            /** @constant */
            aggregate_type: "tag";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                conversation_ids: string[];
                contact_ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TagDeletedStreamedEvent
         * @description A tag was deleted from the catalog; its name may be used again. `conversation_ids` and `contact_ids` are what carried it and no longer do (their projections fold this one event; no untagged event is appended per conversation).
         */
        TagDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "tag.deleted";
            /** @constant */
            aggregate_type: "tag";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                conversation_ids: string[];
                contact_ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TagList
         * @description Every tag of the workspace (at most 1000), by name: unpaginated, so no `pages`.
         */
        TagList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Tag"][];
        };
        /** TagRef */
        TagRef: {
            /** Format: uuid */
            id: string;
            name: string;
        };
        /**
         * TagRenamedFeedEvent
         * @description A tag got a new name. Conversations and contacts show tags by id and current name, so this one event renames it everywhere.
         */
        TagRenamedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "tag.renamed";
            /** @constant */
            aggregate_type: "tag";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TagRenamedStreamedEvent
         * @description A tag got a new name. Conversations and contacts show tags by id and current name, so this one event renames it everywhere.
         */
        TagRenamedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "tag.renamed";
            /** @constant */
            aggregate_type: "tag";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** Team */
        Team: {
            /** @constant */
            type: "team";
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The active members on the team. */
            member_ids: string[];
            /**
             * @description How its new and reopened unassigned conversations are assigned: `none` (a teammate does it), `round_robin` (the next available member after the one it last assigned to, by member id) or `balanced` (the available member with the fewest open conversations assigned; ties in round-robin order). Available: active, on the roster, online, under their capacity. Set with PUT /api/teams/{id}.
             * @enum {string}
             */
            assignment: "none" | "round_robin" | "balanced";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * TeamAssignmentChangedFeedEvent
         * @description A team's assignment rule changed (PUT /api/teams/{id}). `none`: its conversations wait for a teammate to assign them; `round_robin`: each new or reopened unassigned conversation goes to the next available member after the one the team last assigned to, by member id; `balanced`: to the available member with the fewest open conversations assigned (ties in round-robin order). Available: an active member on the roster, online, under their capacity.
         */
        TeamAssignmentChangedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.assignment_changed";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                from: "none" | "round_robin" | "balanced";
                to: "none" | "round_robin" | "balanced";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamAssignmentChangedStreamedEvent
         * @description A team's assignment rule changed (PUT /api/teams/{id}). `none`: its conversations wait for a teammate to assign them; `round_robin`: each new or reopened unassigned conversation goes to the next available member after the one the team last assigned to, by member id; `balanced`: to the available member with the fewest open conversations assigned (ties in round-robin order). Available: an active member on the roster, online, under their capacity.
         */
        TeamAssignmentChangedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.assignment_changed";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                from: "none" | "round_robin" | "balanced";
                to: "none" | "round_robin" | "balanced";
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamCreatedFeedEvent
         * @description A team was created (its name is unique in the workspace, ignoring case). It starts with no members.
         */
        TeamCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.created";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamCreatedStreamedEvent
         * @description A team was created (its name is unique in the workspace, ignoring case). It starts with no members.
         */
        TeamCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.created";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamDeletedFeedEvent
         * @description A team was deleted; its name may be used again. `conversation_ids` are the conversations that were assigned to it and now have team_id null; `channel_ids` the channels whose default_team_id named it and is now null.
         */
        TeamDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.deleted";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                conversation_ids: string[];
                channel_ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamDeletedStreamedEvent
         * @description A team was deleted; its name may be used again. `conversation_ids` are the conversations that were assigned to it and now have team_id null; `channel_ids` the channels whose default_team_id named it and is now null.
         */
        TeamDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.deleted";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                conversation_ids: string[];
                channel_ids: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamList
         * @description Every team of the workspace, by name; not paginated.
         */
        TeamList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["Team"][];
        };
        /**
         * TeamRenamedFeedEvent
         * @description A team got a new name.
         */
        TeamRenamedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.renamed";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamRenamedStreamedEvent
         * @description A team got a new name.
         */
        TeamRenamedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.renamed";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamRosterChangedFeedEvent
         * @description A team's roster changed. `member_ids` is the whole resulting roster (receivers replace, never merge); `added` and `removed` say what changed. A move between teams (POST /api/teams/rosters) appends one per team it changes, in one transaction with contiguous seqs.
         */
        TeamRosterChangedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.roster_changed";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                member_ids: string[];
                added: string[];
                removed: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * TeamRosterChangedStreamedEvent
         * @description A team's roster changed. `member_ids` is the whole resulting roster (receivers replace, never merge); `added` and `removed` say what changed. A move between teams (POST /api/teams/rosters) appends one per team it changes, in one transaction with contiguous seqs.
         */
        TeamRosterChangedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "team.roster_changed";
            /** @constant */
            aggregate_type: "team";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                member_ids: string[];
                added: string[];
                removed: string[];
            };
            /** Format: date-time */
            created_at: string;
        };
        /** Upload */
        Upload: {
            /** @constant */
            type: "upload";
            /** Format: uuid */
            id: string;
            /** @description The file's name as uploaded. Personal data: sealed beside the log under the upload's key; null once destroyed. */
            name: string | null;
            /** @description What the bytes are, sniffed from them (not what the client said); `application/octet-stream` when unknown. */
            content_type: string;
            /** @description Bytes. */
            size: number;
            /**
             * Format: date-time
             * @description When it is deleted if still attached to nothing; null once attached.
             */
            expires_at: string | null;
            /**
             * Format: uuid
             * @description The conversation of the part it is attached to; null until then.
             */
            conversation_id: string | null;
            /**
             * Format: uuid
             * @description The part it is attached to; null until then.
             */
            part_id: string | null;
            created_by: components["schemas"]["Uploader"];
            /** Format: date-time */
            created_at: string;
        };
        /**
         * UploadAttachedFeedEvent
         * @description An upload was attached to a part (a reply's, a note's or a new conversation's `upload_ids`), in the same command as the part's `conversation_part.created`: it is the part's from now on, never expires, and goes with the part's redaction and its contact's erasure. Ids only.
         */
        UploadAttachedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "upload.attached";
            /** @constant */
            aggregate_type: "upload";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                upload_id: string;
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * UploadAttachedStreamedEvent
         * @description An upload was attached to a part (a reply's, a note's or a new conversation's `upload_ids`), in the same command as the part's `conversation_part.created`: it is the part's from now on, never expires, and goes with the part's redaction and its contact's erasure. Ids only.
         */
        UploadAttachedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "upload.attached";
            /** @constant */
            aggregate_type: "upload";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                upload_id: string;
                /** Format: uuid */
                conversation_id: string;
                /** Format: uuid */
                part_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * UploadCreatedFeedEvent
         * @description A file was uploaded, to be attached to a reply, a note or a new conversation (`upload_ids`) before `expires_at`. Its name and bytes are not in the log: they are kept beside it, sealed under the upload's own data key, which the part's redaction or its contact's erasure destroys once it is attached, and its expiry destroys when it is attached to nothing. `content_type` is what the bytes are (sniffed), not what the client said.
         */
        UploadCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "upload.created";
            /** @constant */
            aggregate_type: "upload";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                upload_id: string;
                content_type: string;
                size: number;
                /** Format: date-time */
                expires_at: string;
                created_by: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * UploadCreatedStreamedEvent
         * @description A file was uploaded, to be attached to a reply, a note or a new conversation (`upload_ids`) before `expires_at`. Its name and bytes are not in the log: they are kept beside it, sealed under the upload's own data key, which the part's redaction or its contact's erasure destroys once it is attached, and its expiry destroys when it is attached to nothing. `content_type` is what the bytes are (sniffed), not what the client said.
         */
        UploadCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "upload.created";
            /** @constant */
            aggregate_type: "upload";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                upload_id: string;
                content_type: string;
                size: number;
                /** Format: date-time */
                expires_at: string;
                created_by: {
                    type: "member" | "api_key";
                    id: string;
                };
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * UploadExpiredFeedEvent
         * @description An upload attached to nothing by its `expires_at` was deleted: its data key and bytes were destroyed in the same transaction. Ids only.
         */
        UploadExpiredFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "upload.expired";
            /** @constant */
            aggregate_type: "upload";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                upload_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * UploadExpiredStreamedEvent
         * @description An upload attached to nothing by its `expires_at` was deleted: its data key and bytes were destroyed in the same transaction. Ids only.
         */
        UploadExpiredStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "upload.expired";
            /** @constant */
            aggregate_type: "upload";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                upload_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * Uploader
         * @description Who uploaded it: a member, or an API key.
         */
        Uploader: {
            /** @enum {string} */
            type: "member" | "api_key";
            id: string;
        };
        /** User */
        User: {
            /** @constant */
            type: "user";
            /** Format: uuid */
            id: string;
            email: string;
            name: string;
        };
        /** View */
        View: {
            /** @constant */
            type: "view";
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The filter, in the conversations filter language. */
            query: Record<string, never>;
            /** @enum {string} */
            sort: "created_at" | "updated_at";
            /** @enum {string} */
            order: "asc" | "desc";
            /** @enum {string} */
            visibility: "private" | "workspace";
            /**
             * Format: uuid
             * @description The member a private view belongs to; null for a workspace view.
             */
            owner_member_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** ViewCount */
        ViewCount: {
            /** @constant */
            type: "view_count";
            /** @description A built-in view (`open`, `unassigned`, `assigned_to_me`, `snoozed`, `closed`, `all`) or a custom view's id. */
            id: string;
            name: string;
            /** @enum {string} */
            kind: "builtin" | "custom";
            count: number;
        };
        /**
         * ViewCounts
         * @description One row per built-in view, then per custom view the caller can see; `as_of_seq` is the seq of the last event the counts reflect. Not paginated.
         */
        ViewCounts: {
            /** @constant */
            type: "list";
            as_of_seq: number;
            data: components["schemas"]["ViewCount"][];
        };
        /**
         * ViewCreatedFeedEvent
         * @description A custom view (a saved conversations filter) was created. A `private` view belongs to `member_id` alone, and its creation is never in the change feed or at webhooks; a `workspace` view is everyone's.
         */
        ViewCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "view.created";
            /** @constant */
            aggregate_type: "view";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                /** @description The filter, in the conversations filter language (see POST /api/conversations/search). */
                query: {
                    [key: string]: unknown;
                };
                sort: "created_at" | "updated_at";
                order: "asc" | "desc";
                visibility: "private" | "workspace";
                /** Format: uuid */
                member_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ViewCreatedStreamedEvent
         * @description A custom view (a saved conversations filter) was created. A `private` view belongs to `member_id` alone, and its creation is never in the change feed or at webhooks; a `workspace` view is everyone's.
         */
        ViewCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "view.created";
            /** @constant */
            aggregate_type: "view";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                name: string;
                /** @description The filter, in the conversations filter language (see POST /api/conversations/search). */
                query: {
                    [key: string]: unknown;
                };
                sort: "created_at" | "updated_at";
                order: "asc" | "desc";
                visibility: "private" | "workspace";
                /** Format: uuid */
                member_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ViewDeletedFeedEvent
         * @description A custom view was deleted. The deletion of a private view (`private: true`) is never in the change feed or at webhooks.
         */
        ViewDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "view.deleted";
            /** @constant */
            aggregate_type: "view";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                /** @description A private view was deleted. Absent on events appended before it existed. */
                private?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ViewDeletedStreamedEvent
         * @description A custom view was deleted. The deletion of a private view (`private: true`) is never in the change feed or at webhooks.
         */
        ViewDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "view.deleted";
            /** @constant */
            aggregate_type: "view";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                /** @description A private view was deleted. Absent on events appended before it existed. */
                private?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ViewList
         * @description Every view the caller can see (workspace views, then their private ones, by name): unpaginated, so no `pages`.
         */
        ViewList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["View"][];
        };
        /**
         * ViewUpdatedFeedEvent
         * @description A custom view changed; only the changed fields are in the payload (`query` whole). A workspace view made private becomes the private view of `member_id`, the member who changed it: that change comes alone, other changes made with it follow as a private event. A private view made a workspace view carries all its fields. Events of a private view (`private: true`) are never in the change feed or at webhooks.
         */
        ViewUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "view.updated";
            /** @constant */
            aggregate_type: "view";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                /** @description The event is about a private view only: it is left out of the change feed and webhooks. Absent on events appended before it existed. */
                private?: boolean;
                name?: string;
                /** @description The filter, in the conversations filter language (see POST /api/conversations/search). */
                query?: {
                    [key: string]: unknown;
                };
                sort?: "created_at" | "updated_at";
                order?: "asc" | "desc";
                visibility?: "private" | "workspace";
                /** Format: uuid */
                member_id?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * ViewUpdatedStreamedEvent
         * @description A custom view changed; only the changed fields are in the payload (`query` whole). A workspace view made private becomes the private view of `member_id`, the member who changed it: that change comes alone, other changes made with it follow as a private event. A private view made a workspace view carries all its fields. Events of a private view (`private: true`) are never in the change feed or at webhooks.
         */
        ViewUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "view.updated";
            /** @constant */
            aggregate_type: "view";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                id: string;
                /** @description The event is about a private view only: it is left out of the change feed and webhooks. Absent on events appended before it existed. */
                private?: boolean;
                name?: string;
                /** @description The filter, in the conversations filter language (see POST /api/conversations/search). */
                query?: {
                    [key: string]: unknown;
                };
                sort?: "created_at" | "updated_at";
                order?: "asc" | "desc";
                visibility?: "private" | "workspace";
                /** Format: uuid */
                member_id?: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * WebhookDelivery
         * @description One delivery of an event to a webhook endpoint, or of a reply to a channel (then endpoint_id is the channel's id).
         */
        WebhookDelivery: {
            /** @constant */
            type: "webhook_delivery";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            endpoint_id: string;
            seq: number;
            event_type: string;
            /** @enum {string} */
            state: "pending" | "delivered" | "dead";
            attempts: number;
            last_status: number | null;
            last_error: string | null;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            delivered_at: string | null;
            republished: boolean;
        };
        /** WebhookDeliveryList */
        WebhookDeliveryList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["WebhookDelivery"][];
            pages: components["schemas"]["Pages"];
        };
        /** WebhookDeliveryWithAttempts */
        WebhookDeliveryWithAttempts: {
            /** @constant */
            type: "webhook_delivery";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            endpoint_id: string;
            seq: number;
            event_type: string;
            /** @enum {string} */
            state: "pending" | "delivered" | "dead";
            attempts: number;
            last_status: number | null;
            last_error: string | null;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            delivered_at: string | null;
            republished: boolean;
            attempt_log: components["schemas"]["DeliveryAttempt"][];
        };
        /** WebhookEndpoint */
        WebhookEndpoint: {
            /** @constant */
            type: "webhook_endpoint";
            /** Format: uuid */
            id: string;
            url: string;
            /** @description Event types delivered; empty means every event. */
            event_names: string[];
            description: string;
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * WebhookEndpointCreatedFeedEvent
         * @description A webhook endpoint was registered. It receives events appended after this one. Its signing secret is sealed beside the log, never in it.
         */
        WebhookEndpointCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "webhook_endpoint.created";
            /** @constant */
            aggregate_type: "webhook_endpoint";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                endpoint_id: string;
                url: string;
                event_names: string[];
                description: string;
                enabled: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * WebhookEndpointCreatedStreamedEvent
         * @description A webhook endpoint was registered. It receives events appended after this one. Its signing secret is sealed beside the log, never in it.
         */
        WebhookEndpointCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "webhook_endpoint.created";
            /** @constant */
            aggregate_type: "webhook_endpoint";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                endpoint_id: string;
                url: string;
                event_names: string[];
                description: string;
                enabled: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * WebhookEndpointDeletedFeedEvent
         * @description An endpoint was removed with its secret and delivery history.
         */
        WebhookEndpointDeletedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "webhook_endpoint.deleted";
            /** @constant */
            aggregate_type: "webhook_endpoint";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                endpoint_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * WebhookEndpointDeletedStreamedEvent
         * @description An endpoint was removed with its secret and delivery history.
         */
        WebhookEndpointDeletedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "webhook_endpoint.deleted";
            /** @constant */
            aggregate_type: "webhook_endpoint";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                endpoint_id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** WebhookEndpointList */
        WebhookEndpointList: {
            /** @constant */
            type: "list";
            data: components["schemas"]["WebhookEndpoint"][];
            pages: components["schemas"]["Pages"];
        };
        /**
         * WebhookEndpointUpdatedFeedEvent
         * @description An endpoint's url, filter, description or enabled flag changed; only the changed fields are in the payload.
         */
        WebhookEndpointUpdatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "webhook_endpoint.updated";
            /** @constant */
            aggregate_type: "webhook_endpoint";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                endpoint_id: string;
                url?: string;
                event_names?: string[];
                description?: string;
                enabled?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * WebhookEndpointUpdatedStreamedEvent
         * @description An endpoint's url, filter, description or enabled flag changed; only the changed fields are in the payload.
         */
        WebhookEndpointUpdatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "webhook_endpoint.updated";
            /** @constant */
            aggregate_type: "webhook_endpoint";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                endpoint_id: string;
                url?: string;
                event_names?: string[];
                description?: string;
                enabled?: boolean;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** WebhookEndpointWithSecret */
        WebhookEndpointWithSecret: {
            /** @constant */
            type: "webhook_endpoint";
            /** Format: uuid */
            id: string;
            url: string;
            /** @description Event types delivered; empty means every event. */
            event_names: string[];
            description: string;
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The signing secret, shown this once. */
            secret: string;
        };
        /** Workspace */
        Workspace: {
            /** @constant */
            type: "workspace";
            /** Format: uuid */
            id: string;
            name: string;
        };
        /**
         * WorkspaceCreatedFeedEvent
         * @description A workspace (tenant) was founded. Its first member, the owner, joins in the same command (member.joined).
         */
        WorkspaceCreatedFeedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "workspace.created";
            /** @constant */
            aggregate_type: "workspace";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                workspace_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        /**
         * WorkspaceCreatedStreamedEvent
         * @description A workspace (tenant) was founded. Its first member, the owner, joins in the same command (member.joined).
         */
        WorkspaceCreatedStreamedEvent: {
            /**
             * Format: uuid
             * @description The event's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The workspace.
             */
            tenant_id: string;
            /** @description Per workspace, from 1, without gaps in the log; deduplicate on it. */
            seq: number;
            /** @constant */
            type: "workspace.created";
            /** @constant */
            aggregate_type: "workspace";
            /** @description The id of the thing the event is about. */
            aggregate_id: string;
            payload: {
                /** Format: uuid */
                workspace_id: string;
                name: string;
            };
            /** Format: date-time */
            created_at: string;
        };
    };
    responses: {
        /** @description The request is malformed, or names something the workspace does not have. Codes: `address_has_tag`, `address_required`, `address_too_long`, `attribute_archived`, `bad_request`, `duplicate_member`, `duplicate_team`, `idempotency_key_not_allowed`, `identity_required`, `invalid_attribute_value`, `invalid_body`, `invalid_cursor`, `invalid_dkim_key`, `invalid_field`, `invalid_idempotency_key`, `invalid_json`, `invalid_last_event_id`, `invalid_mime`, `invalid_placeholder`, `invalid_query`, `invalid_seq_range`, `invalid_text`, `invalid_time_range`, `invalid_time_zone`, `invalid_timestamp`, `invalid_upload`, `mentions_on_notes_only`, `missing_field`, `nesting_too_deep`, `rated_at_ahead`, `request_aborted`, `secret_immutable`, `seq_ahead_of_log`, `snooze_in_past`, `too_many_values`, `unknown_attribute`, `unknown_audit_action`, `unknown_channel`, `unknown_contact`, `unknown_conversation`, `unknown_event_type`, `unknown_field`, `unknown_member`, `unknown_placeholder`, `unknown_tag`, `unknown_team`, `unknown_upload`, `webhook_secret_required`, `webhook_url_forbidden`, `webhook_url_invalid`, `webhook_url_not_for_email`, `webhook_url_unresolvable`, `workspace_required`. What each means: docs/errors.md. */
        BadRequest: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description Not authenticated. Codes: `invalid_api_key`, `invalid_credentials`, `session_expired`, `stale_timestamp`, `unauthenticated`. What each means: docs/errors.md. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description Authenticated but not allowed. Codes: `missing_scope`, `not_author`, `owner_required`, `scope_exceeds_role`, `session_required`, `session_too_old`, `workspace_header_required`. What each means: docs/errors.md. */
        Forbidden: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description Not found: including every other workspace's ids and malformed ids. Codes: `invite_not_found`, `member_not_found`, `not_found`, `reset_not_found`, `route_not_found`, `workspace_not_found`. What each means: docs/errors.md. */
        NotFound: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description The request was not received in time; the connection is closed. Codes: `request_timeout`. What each means: docs/errors.md. */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description A conflict with the current state, or with a request still running. Codes: `already_member`, `attribute_exists`, `attribute_in_use`, `audit_chain_broken`, `audit_chain_incomplete`, `channel_address_taken`, `channel_source_taken`, `company_exists`, `concurrent_modification`, `contact_exists`, `conversation_already_closed`, `conversation_already_open`, `conversation_exists`, `conversation_merged`, `domain_not_verified`, `domain_taken`, `email_domain_exists`, `email_taken`, `export_failed`, `export_in_progress`, `export_not_ready`, `idempotency_key_in_flight`, `inviter_cannot_grant`, `job_finished`, `last_owner`, `member_active`, `outbound_finished`, `outbound_not_draft`, `part_not_unsendable`, `part_redacted`, `saved_reply_exists`, `tag_exists`, `team_exists`, `unsend_window_passed`, `upload_attached`, `workspace_exists`. What each means: docs/errors.md. */
        Conflict: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description Gone for good. Codes: `contact_erased`, `contact_merged`, `export_expired`. What each means: docs/errors.md. */
        Gone: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description The body is too large. Codes: `mime_too_complex`, `payload_too_large`, `storage_quota_exceeded`, `upload_too_large`. What each means: docs/errors.md. */
        PayloadTooLarge: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description The body is not JSON in UTF-8. Codes: `unsupported_encoding`, `unsupported_media_type`. What each means: docs/errors.md. */
        UnsupportedMediaType: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description Understood, but it cannot be done. Codes: `audience_too_large`, `channels_not_configured`, `idempotency_key_reused`, `limit_reached`, `mail_not_configured`, `mail_refused`, `merge_across_channels`, `merge_across_contacts`, `merge_target_erased`, `merge_target_merged`, `merge_too_large`, `no_conversations`, `too_many_companies`, `too_many_conversations`, `upload_expired`. What each means: docs/errors.md. */
        Unprocessable: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description Too many requests; `Retry-After` says when to try again. Codes: `rate_limited`, `too_many_attempts`, `too_many_invites`, `too_many_streams`. What each means: docs/errors.md. */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description The request line and headers are too large; the connection is closed. Codes: `headers_too_large`. What each means: docs/errors.md. */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description A bug, logged with the request id. Codes: `internal_error`. What each means: docs/errors.md. */
        InternalError: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
        /** @description The database is unavailable for a moment; retry after `Retry-After` seconds (a write with the same Idempotency-Key is applied at most once). Codes: `mail_relay_unavailable`, `service_unavailable`. What each means: docs/errors.md. */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorList"];
            };
        };
    };
    parameters: {
        /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description The rate-limit policies this request draws from (draft-ietf-httpapi-ratelimit-headers: a Structured Field List of quoted policy names with `q`, the requests a window admits, and `w`, the window in seconds), e.g. `"key";q=10000;w=60, "workspace";q=25000;w=60`. `key`: the API key (or the signed-in member); `workspace`: all of the workspace's callers; `expensive`: the workspace's searches, exports, custom views' lists and counts (the counts one unit per custom view, plus one); `channel`: the routes a channel signs (inbound, raw MIME, ratings), per channel. Sent on every answer to an authenticated request except a 401, and on a signed route's answers once the signature verified. See docs/api-guide.md (Rate limits). */
        RateLimitPolicy: string;
        /** @description Where each policy of `RateLimit-Policy` stands, in the same order: `r`, the requests left in the current window, and `t`, the seconds until it ends, e.g. `"key";r=9998;t=41, "workspace";r=24990;t=41`. With several API processes `r` is what this process knows (it may be high by what the others took since). A 429 `rate_limited` names the used-up policy with `r=0` (a request costing several units, the counts, may find fewer left than it costs), and `Retry-After` says when its window ends. */
        RateLimit: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAuditCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The head (seq and chain hash) signed now, or the checkpoint already signed for that same head by the same key. Verify it with GET /api/audit/keys (docs/audit.md). */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditCheckpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `audit_chain_broken`: the log does not extend the last checkpoint the service signed (an event at or before it was rewritten, deleted, or a hash made up); the message names the first seq that fails, and nothing is signed. `audit_chain_incomplete`: an event of the range was written without a chain hash (AUDIT_CHAIN=off). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAuditCheckpoints: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "signed_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditCheckpointList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAuditExport: {
        parameters: {
            query?: {
                /** @description Export the events after this seq (default 0: from the first). */
                after_seq?: number;
                /** @description Up to and including this seq (default: the log's head when the export starts). */
                to_seq?: number;
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description application/x-ndjson, one JSON document per line, each one of these shapes: the header, then one line per event in seq order, then the signed checkpoint of the last seq. Streamed; verify it with `npm run -s cli -- audit verify --file` or as docs/audit.md says. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["AuditExportLine"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `audit_chain_broken`: the log does not extend the last checkpoint the service signed (an event at or before it was rewritten, deleted, or a hash made up); the message names the first seq that fails, and nothing is signed. `audit_chain_incomplete`: an event of the range was written without a chain hash (AUDIT_CHAIN=off). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAuditKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditKeySet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAuditLog: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                /** @description An event type or an action beside the log. */
                action?: string;
                /** @description The actor's id, or the member behind it (a member's own actions and those of their API keys). */
                actor_id?: string;
                aggregate_id?: string;
                /** @description Entries at or after this instant. */
                since?: string;
                /** @description Entries before this instant. */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAutomationRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationRuleList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAutomationRules: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    enabled?: boolean;
                    on: string[];
                    if?: Record<string, never> | null;
                    then: components["schemas"]["AutomationAction"][];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationRuleWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAutomationRulesReorder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Every rule of the workspace, first to last. */
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationRuleList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAutomationRulesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putAutomationRulesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    enabled?: boolean;
                    on?: string[];
                    if?: Record<string, never> | null;
                    then?: components["schemas"]["AutomationAction"][];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAutomationRulesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedAutomationRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAutomationRulesByIdActions: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "seq";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationActionRunList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAutomationRulesByIdDeliveries: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "seq";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                state?: "pending" | "delivered" | "dead";
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAutomationRulesByIdDeliveriesByDeliveryId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryWithAttempts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAutomationRulesByIdDeliveriesByDeliveryIdRetry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAutomationRulesByIdTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    conversation_id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationRuleTest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getChannels: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "updated_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postChannels: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    kind: "api" | "email";
                    name: string;
                    source?: string;
                    default_team_id?: string | null;
                    webhook_secret?: string;
                    /** Format: uri */
                    webhook_url?: string | null;
                    /**
                     * Format: email
                     * @description An `email` channel's support address (required for `email`).
                     */
                    address?: string;
                    dkim?: {
                        selector: string;
                        /** @description PEM (PKCS#8 or PKCS#1) RSA key; sealed, never shown again. */
                        private_key: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getChannelsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putChannelsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** Format: uri */
                    webhook_url?: string | null;
                    /** @description false disables the channel: its signed routes answer the empty 401 and nothing is sent to its bridge; true enables it again. */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteChannelsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedChannel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getChannelsByIdDeliveries: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "seq";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                state?: "pending" | "delivered" | "dead";
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getChannelsByIdDeliveriesByDeliveryId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryWithAttempts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postChannelsByIdInbound: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel's id. An unknown one answers the same empty 401 as a bad signature. */
                id: string;
            };
            cookie?: never;
        };
        /** @description The exact bytes are signed; send them as they were signed. */
        requestBody: {
            content: {
                "application/json": {
                    external_id: string;
                    message_id?: string;
                    contact: {
                        external_id: string;
                        name?: string;
                        /** Format: email */
                        email?: string;
                        phone?: string | null;
                    };
                    content: string;
                    attachments?: {
                        /** Format: uri */
                        url: string;
                        name?: string;
                        content_type?: string;
                        /** @description The file's size in bytes, at most 2^53 - 1 (9007199254740991). */
                        size?: number;
                    }[];
                    /** Format: date-time */
                    at?: string;
                };
            };
        };
        responses: {
            /** @description Filed: a new conversation (the thread's first post), or a new part (a follow-up with a new message_id). */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboundReceipt"];
                };
            };
            /** @description Nothing filed: the thread exists and the post carries no new message_id, the same bytes were accepted before (a retry, or a replay under a new timestamp), or the thread's conversation was deleted or its contact erased (`conversation_id` null: an erased thread is never filed again; a customer who comes back starts a thread with a new external_id). */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboundDuplicate"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No body when the content type is not application/json, the channel is unknown, disabled, or the signature is wrong (the same empty answer for all). Only a caller whose signature verifies gets a body: the error envelope (`stale_timestamp`, see `x-exceptional-content`) when the timestamp is more than 5 minutes off. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `rate_limited`: the channel's own limit (RATE_LIMIT_CHANNEL per RATE_LIMIT_WINDOW_SECONDS), counted once the signature and timestamp check out; `Retry-After` says when its window ends. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postChannelsByIdInboundMime: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel's id. An unknown one answers the same empty 401 as a bad signature. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Filed: a new conversation, or a new part of the conversation it threads into. */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailReceipt"];
                };
            };
            /** @description Nothing filed: a message already filed (`duplicate`, same Message-ID, or the same bytes accepted before), a bounce attached to the reply it bounced (`bounce`), or mail the channel does not file (`ignored`: its own mail, a report that is no failure). */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailNotFiled"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No body when the content type is not message/rfc822, the channel is unknown or not of kind email, disabled, or the signature is wrong (the same empty answer for all). Only a caller whose signature verifies gets a body: the error envelope (`stale_timestamp`, see `x-exceptional-content`) when the timestamp is more than 5 minutes off. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `rate_limited`: the channel's own limit (RATE_LIMIT_CHANNEL per RATE_LIMIT_WINDOW_SECONDS), counted once the signature and timestamp check out; `Retry-After` says when its window ends. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postChannelsByIdRatings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The channel's id. An unknown one answers the same empty 401 as a bad signature. */
                id: string;
            };
            cookie?: never;
        };
        /** @description The exact bytes are signed; send them as they were signed. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The bridge's thread id, as its inbound posts name it. */
                    external_id: string;
                    /** @description 1 (very dissatisfied) to 5 (very satisfied). */
                    score: number;
                    /** @description The customer's words (personal data). */
                    remark?: string | null;
                    /**
                     * Format: date-time
                     * @description When the customer gave the rating (at most 5 minutes ahead of the service clock). A rating older than the one in force, or the same rating again, changes nothing (202).
                     */
                    rated_at: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationRatingGiven"];
                };
            };
            /** @description Nothing recorded: the rating in force was given later, or it is this very rating (the same bytes again, or the same score and remark at the same `rated_at`). The answer is the rating in force. */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationRatingGiven"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No body when the content type is not application/json, the channel is unknown, disabled, or the signature is wrong (the same empty answer for all). Only a caller whose signature verifies gets a body: the error envelope (`stale_timestamp`, see `x-exceptional-content`) when the timestamp is more than 5 minutes off. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `rate_limited`: the channel's own limit (RATE_LIMIT_CHANNEL per RATE_LIMIT_WINDOW_SECONDS), counted once the signature and timestamp check out; `Retry-After` says when its window ends. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postChannelsByIdRotateSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description How long the secret being replaced keeps verifying (default CHANNEL_SECRET_GRACE_SECONDS); 0: it stops now. */
                    grace_seconds?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelWithRotatedSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCompanies: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "updated_at" | "name";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                company_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postCompanies: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    company_id: string;
                    name: string;
                    /** Format: uri */
                    website?: string;
                    plan?: string;
                    size?: number;
                    custom_attributes?: {
                        [key: string]: string | number | boolean;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCompaniesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putCompaniesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** Format: uri */
                    website?: string | null;
                    plan?: string | null;
                    size?: number | null;
                    custom_attributes?: {
                        [key: string]: string | number | boolean | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteCompaniesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedCompany"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCompaniesByIdContacts: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "updated_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                /** @description Left out: active contacts only. `true`: archived contacts only. `false`: active contacts only. */
                archived?: boolean;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getContacts: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "updated_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                /** @description Exact e-mail, compared case-insensitively. */
                email?: string;
                external_id?: string;
                /** @description Contacts of this company (the company's `id`). */
                company_id?: string;
                /** @description Left out: active contacts only. `true`: archived contacts only. `false`: active contacts only. */
                archived?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContacts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    external_id?: string;
                    /** Format: email */
                    email?: string;
                    name?: string;
                    phone?: string;
                    custom_attributes?: {
                        [key: string]: string | number | boolean;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsSearch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators. */
                    query: Record<string, never>;
                    /** @enum {string} */
                    sort?: "created_at" | "updated_at";
                    /** @enum {string} */
                    order?: "asc" | "desc";
                    per_page?: number;
                    starting_after?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getContactsById: {
        parameters: {
            query?: {
                /** @description Answer the resource as it was right after the event with this seq (folded from its own events); 404 if it did not exist yet. */
                as_of_seq?: number;
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putContactsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    external_id?: string | null;
                    /** Format: email */
                    email?: string | null;
                    name?: string | null;
                    phone?: string | null;
                    custom_attributes?: {
                        [key: string]: string | number | boolean | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteContactsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactErasure"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsByIdArchive: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsByIdCompanies: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The company's `id` (not the workspace's own `company_id`).
                     */
                    company_id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteContactsByIdCompaniesByCompanyId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                company_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsByIdExports: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued; follow `Location` (GET /api/exports/{id}) until `status` is `completed`, then download. */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `export_in_progress`: the contact already has a queued or running export; the message and `Location` name it. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            /** @description `contact_erased`: the contact was erased; nothing is left to export. */
            410: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getContactsByIdHistory: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "seq";
                order?: "asc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryEventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsByIdMerge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The contact to merge this one into: the survivor.
                     */
                    into: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getContactsByIdNotes: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactNoteList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsByIdNotes: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactNote"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getContactsByIdNotesByNoteId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                note_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactNote"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteContactsByIdNotesByNoteId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                note_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedContactNote"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsByIdTags: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    tag_id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteContactsByIdTagsByTagId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                tag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContactsByIdUnarchive: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationAttributes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationAttributeList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationAttributes: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    data_type: "string" | "integer" | "float" | "boolean" | "date" | "list";
                    options?: string[];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationAttribute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationAttributesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationAttribute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putConversationAttributesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    options?: string[];
                    description?: string | null;
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationAttribute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteConversationAttributesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedConversationAttribute"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversations: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "updated_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                state?: "open" | "closed" | "snoozed";
                priority?: "low" | "normal" | "high" | "urgent";
                assignee_id?: string | "none";
                channel_id?: string;
                contact_id?: string;
                /** @description A built-in view's id or a custom view's: its conversations (404 when the caller cannot see it). A custom view's list draws from the workspace's `expensive` rate limit, as a search does. */
                view_id?: string | ("open" | "unassigned" | "assigned_to_me" | "snoozed" | "closed" | "all");
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversations: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    channel_id: string;
                    body: string;
                    subject?: string;
                    /** Format: uuid */
                    contact_id?: string;
                    contact?: {
                        external_id?: string;
                        name?: string;
                        /** Format: email */
                        email?: string;
                        phone?: string | null;
                    };
                    /** Format: uuid */
                    assignee_id?: string;
                    /** @enum {string} */
                    priority?: "low" | "normal" | "high" | "urgent";
                    /** @description Ids of uploads (POST /api/uploads) to attach, at most 10: each attached to nothing yet and not expired. */
                    upload_ids?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationWithParts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The conversations, at most 10000. */
                    ids?: string[];
                    /** @description The conversations the filter language matches now (at most 10000), oldest first. */
                    query?: Record<string, never>;
                    /** @description Exactly one action. */
                    action: {
                        /** @description Assign to this member (null: unassign). */
                        assign?: string | null;
                        /** @description Move to this team (null: no team), through the team's routing. */
                        team?: string | null;
                        /** @constant */
                        close?: true;
                        /** @enum {string} */
                        priority?: "low" | "normal" | "high" | "urgent";
                        tags_add?: string[];
                        tags_remove?: string[];
                        /** @constant */
                        open?: true;
                        /**
                         * Format: date-time
                         * @description Snooze until then.
                         */
                        snooze?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationsCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ViewCounts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsSearch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators. */
                    query: Record<string, never>;
                    /** @enum {string} */
                    sort?: "created_at" | "updated_at";
                    /** @enum {string} */
                    order?: "asc" | "desc";
                    per_page?: number;
                    starting_after?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationsById: {
        parameters: {
            query?: {
                /** @description Answer the resource as it was right after the event with this seq (folded from its own events); 404 if it did not exist yet. */
                as_of_seq?: number;
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationWithParts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putConversationsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Values of the workspace's conversation attributes by name (null removes one); each must fit its definition's data type. */
                    custom_attributes: {
                        [key: string]: string | number | boolean | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationsByIdHistory: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "seq";
                order?: "asc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryEventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsByIdMerge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The conversation to merge this one into (the same channel).
                     */
                    into: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsByIdParts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    message_type: "close" | "open" | "snoozed" | "assignment" | "priority";
                    body?: string;
                    /** Format: date-time */
                    snoozed_until?: string;
                    assignee_id?: string | null;
                    team_id?: string | null;
                    /** @enum {string} */
                    priority?: "low" | "normal" | "high" | "urgent";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPartWithConversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationsByIdPartsByPartIdAttachmentsByIndex: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                part_id: string;
                index: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attachment's bytes, with its content type, `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such attachment, or its content is gone (redacted, erased). */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationsByIdPartsByPartIdEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                part_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailMessage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsByIdPartsByPartIdRedact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                part_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPartWithConversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsByIdPartsByPartIdUnsend: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                part_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPartWithConversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsByIdRatings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 (very dissatisfied) to 5 (very satisfied). */
                    score: number;
                    /** @description The customer's words (personal data). */
                    remark?: string | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationRatingGiven"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsByIdReply: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                    /** @enum {string} */
                    message_type: "comment" | "note";
                    attachments?: {
                        /** Format: uri */
                        url: string;
                        name?: string;
                        content_type?: string;
                        /** @description The file's size in bytes, at most 2^53 - 1 (9007199254740991). */
                        size?: number;
                    }[];
                    mentions?: string[];
                    /** @description Ids of uploads (POST /api/uploads) to attach, at most 10: each attached to nothing yet and not expired. */
                    upload_ids?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPartWithConversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationsByIdSla: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationSlaAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConversationsByIdStatistics: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationStatisticsAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postConversationsByIdTags: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    tag_id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteConversationsByIdTagsByTagId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                tag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDownloadsByToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file's bytes, with the type sniffed from them, `Content-Disposition: attachment` (its name) and `X-Content-Type-Options: nosniff`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description The URL is not one this service made, has expired (UPLOAD_URL_TTL_SECONDS), or its file is gone (redacted, erased). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEmailDomains: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "updated_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailDomainList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postEmailDomains: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The domain, e.g. `acme.example` (case and a trailing dot are ignored). */
                    domain: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailDomain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEmailDomainsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailDomain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteEmailDomainsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedEmailDomain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postEmailDomainsByIdVerify: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailDomain"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEvents: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "seq";
                order?: "asc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                after_seq?: number;
                types?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedEventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEventsSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventSchemaList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getEventsStream: {
        parameters: {
            query?: {
                /** @description Start after this seq (default 0); Last-Event-ID wins. */
                after_seq?: number;
                /** @description Comma-separated event types: only these are sent. */
                types?: string;
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream: one event per feed element (`id:` its seq, `event:` its type, `data:` the element as GET /api/events shows it), comment lines as heartbeats. It does not end by itself; reconnect with `Last-Event-ID` (EventSource does) to resume. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["StreamedEvent"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getExportsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getExportsByIdDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (docs/api-guide.md: Subject-access export): personal values opened now, so what was erased or redacted since reads as null. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactExportFile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `export_not_ready` (queued or running) or `export_failed`. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            /** @description `export_expired`: the file was deleted EXPORT_TTL_HOURS after completion; request a new export. */
            410: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postInvitesAccept: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    name: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InviteAcceptance"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getJobsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteJobsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getJobsByIdItems: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "position";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobItemList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getKeys: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postKeys: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    scopes: ("conversations:read" | "conversations:write" | "conversations:delete" | "contacts:read" | "contacts:write" | "contacts:delete" | "contacts:export" | "settings:read" | "settings:write" | "members:read" | "members:invite" | "events:read" | "api_keys:create" | "api_keys:revoke_own" | "api_keys:revoke_any" | "audit:read")[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteKeysById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postKeysByIdRotate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putMeAvailability: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "online" | "away";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteMeDevices: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMeMentions: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MentionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMembers: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "joined_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                status?: "active" | "removed";
                role?: "owner" | "admin" | "agent" | "viewer";
                /** @description Who is online (or away) for routing now. */
                availability?: "online" | "away";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMembersInvites: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                status?: "pending" | "expired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InviteList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postMembersInvites: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "owner" | "admin" | "agent" | "viewer";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewInvite"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteMembersInvitesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invite"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putMembersById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role?: "owner" | "admin" | "agent" | "viewer";
                    /** @description The most open conversations assigned to the member that routing gives them; null: no limit. */
                    capacity?: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteMembersById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteMembersByIdDevices: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postMembersByIdErase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOutbound: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OutboundList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postOutbound: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** Format: uuid */
                    channel_id: string;
                    subject?: string | null;
                    body: string;
                    audience: {
                        contact_ids: string[];
                    } | {
                        tag_ids: string[];
                    } | {
                        /** @description The contacts filter language, as POST /api/contacts/search takes it: a condition `{field, operator, value}` or a group `{operator, value}`. */
                        query: Record<string, never>;
                    };
                    /** Format: date-time */
                    send_at?: string | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOutboundById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putOutboundById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** Format: uuid */
                    channel_id?: string;
                    subject?: string | null;
                    body?: string;
                    audience?: {
                        contact_ids: string[];
                    } | {
                        tag_ids: string[];
                    } | {
                        /** @description The contacts filter language, as POST /api/contacts/search takes it: a condition `{field, operator, value}` or a group `{operator, value}`. */
                        query: Record<string, never>;
                    };
                    /** Format: date-time */
                    send_at?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteOutboundById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedOutbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postOutboundByIdCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOutboundByIdRecipients: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "position";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                status?: "pending" | "sent" | "failed" | "skipped" | "cancelled";
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OutboundRecipientList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postOutboundByIdSend: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPasswordResets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordResetRequested"];
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPasswordResetsConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordResetDone"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReportsCsat: {
        parameters: {
            query?: {
                /** @description Ratings given at or after this instant. */
                since?: string;
                /** @description Ratings given before this instant. */
                until?: string;
                /** @description Only ratings of conversations that had this team. */
                team_id?: string;
                /** @description Only ratings of conversations that had this assignee. */
                assignee_id?: string;
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CsatReport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReportsResponseTimes: {
        parameters: {
            query?: {
                /** @description Conversations created at or after this instant. */
                since?: string;
                /** @description Conversations created before this instant. */
                until?: string;
                /** @description Only conversations of this team (now). */
                team_id?: string;
                /** @description Only conversations assigned to this member (now). */
                assignee_id?: string;
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResponseTimesReport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSavedReplies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedReplyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postSavedReplies: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    body: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedReply"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSavedRepliesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedReply"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putSavedRepliesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    body?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedReply"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSavedRepliesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedSavedReply"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postSavedRepliesByIdRender: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    conversation_id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderedReply"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSettingsBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BusinessHours"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putSettingsBusinessHours: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    time_zone: string;
                    intervals: {
                        /** @enum {string} */
                        day: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                        start: string;
                        end: string;
                    }[];
                    holidays: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BusinessHours"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSlaPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postSlaPolicies: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    match?: {
                        priority?: ("low" | "normal" | "high" | "urgent")[];
                        team_id?: string[];
                        channel_id?: string[];
                        /** @description A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators. */
                        query?: Record<string, never>;
                    };
                    first_response_target_seconds?: number | null;
                    next_response_target_seconds?: number | null;
                    resolution_target_seconds?: number | null;
                    business_hours?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSlaPoliciesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putSlaPoliciesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    match?: {
                        priority?: ("low" | "normal" | "high" | "urgent")[];
                        team_id?: string[];
                        channel_id?: string[];
                        /** @description A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators. */
                        query?: Record<string, never>;
                    };
                    first_response_target_seconds?: number | null;
                    next_response_target_seconds?: number | null;
                    resolution_target_seconds?: number | null;
                    business_hours?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlaPolicy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSlaPoliciesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedSlaPolicy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postTags: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTagsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putTagsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTagsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedTag"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTeams: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postTeams: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postTeamsRosters: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    teams: {
                        team_id: string;
                        member_ids: string[];
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTeamsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putTeamsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /**
                     * @description How new and reopened unassigned conversations of the team are assigned (see Routing in the API guide).
                     * @enum {string}
                     */
                    assignment?: "none" | "round_robin" | "balanced";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTeamsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedTeam"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putTeamsByIdMembers: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    member_ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postUploads: {
        parameters: {
            query?: {
                /** @description The file's name, for a body of raw bytes (a multipart form's file part names its own). */
                filename?: string;
            };
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The file: its raw bytes (any Content-Type; name it with ?filename=) or a multipart/form-data form with one file part. At most UPLOAD_MAX_BYTES (20971520 here). */
        requestBody: {
            content: {
                "application/octet-stream": string;
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUploadsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUploadsByIdContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file's bytes, with the type sniffed from them, `Content-Disposition: attachment` (its name) and `X-Content-Type-Options: nosniff`. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such upload, or its file is gone (expired, redacted, erased). */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getViews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ViewList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postViews: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators. */
                    query: Record<string, never>;
                    /** @enum {string} */
                    sort?: "created_at" | "updated_at";
                    /** @enum {string} */
                    order?: "asc" | "desc";
                    /** @enum {string} */
                    visibility?: "private" | "workspace";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getViewsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putViewsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators. */
                    query?: Record<string, never>;
                    /** @enum {string} */
                    sort?: "created_at" | "updated_at";
                    /** @enum {string} */
                    order?: "asc" | "desc";
                    /** @enum {string} */
                    visibility?: "private" | "workspace";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["View"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteViewsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedView"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url: string;
                    event_names: ("api_key.created" | "api_key.revoked" | "api_key.rotated" | "automation_rule.created" | "automation_rule.deleted" | "automation_rule.reordered" | "automation_rule.updated" | "business_hours.set" | "channel.created" | "channel.deleted" | "channel.secret_rotated" | "channel.updated" | "company.created" | "company.deleted" | "company.updated" | "contact.archived" | "contact.company_attached" | "contact.company_detached" | "contact.created" | "contact.erased" | "contact.merged" | "contact.tagged" | "contact.unarchived" | "contact.untagged" | "contact.updated" | "contact_note.created" | "contact_note.deleted" | "conversation.attributes_updated" | "conversation.created" | "conversation.mentioned" | "conversation.merged" | "conversation.rated" | "conversation.sla_applied" | "conversation.sla_breached" | "conversation.sla_met" | "conversation.tagged" | "conversation.untagged" | "conversation_attribute.created" | "conversation_attribute.deleted" | "conversation_attribute.updated" | "conversation_part.created" | "conversation_part.delivery_failed" | "conversation_part.redacted" | "conversation_part.unsent" | "email.received" | "email.sent" | "email_domain.created" | "email_domain.deleted" | "email_domain.verified" | "job.canceled" | "job.completed" | "job.created" | "member.availability_changed" | "member.capacity_changed" | "member.erased" | "member.invite_revoked" | "member.invited" | "member.joined" | "member.removed" | "member.role_changed" | "outbound.cancelled" | "outbound.created" | "outbound.deleted" | "outbound.scheduled" | "outbound.sending" | "outbound.sent" | "outbound.updated" | "outbound_recipient.failed" | "outbound_recipient.sent" | "outbound_recipient.skipped" | "saved_reply.created" | "saved_reply.deleted" | "saved_reply.updated" | "sla_policy.created" | "sla_policy.deleted" | "sla_policy.updated" | "tag.created" | "tag.deleted" | "tag.renamed" | "team.assignment_changed" | "team.created" | "team.deleted" | "team.renamed" | "team.roster_changed" | "upload.attached" | "upload.created" | "upload.expired" | "view.created" | "view.deleted" | "view.updated" | "webhook_endpoint.created" | "webhook_endpoint.deleted" | "webhook_endpoint.updated" | "workspace.created")[];
                    description?: string;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooksById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    event_names?: ("api_key.created" | "api_key.revoked" | "api_key.rotated" | "automation_rule.created" | "automation_rule.deleted" | "automation_rule.reordered" | "automation_rule.updated" | "business_hours.set" | "channel.created" | "channel.deleted" | "channel.secret_rotated" | "channel.updated" | "company.created" | "company.deleted" | "company.updated" | "contact.archived" | "contact.company_attached" | "contact.company_detached" | "contact.created" | "contact.erased" | "contact.merged" | "contact.tagged" | "contact.unarchived" | "contact.untagged" | "contact.updated" | "contact_note.created" | "contact_note.deleted" | "conversation.attributes_updated" | "conversation.created" | "conversation.mentioned" | "conversation.merged" | "conversation.rated" | "conversation.sla_applied" | "conversation.sla_breached" | "conversation.sla_met" | "conversation.tagged" | "conversation.untagged" | "conversation_attribute.created" | "conversation_attribute.deleted" | "conversation_attribute.updated" | "conversation_part.created" | "conversation_part.delivery_failed" | "conversation_part.redacted" | "conversation_part.unsent" | "email.received" | "email.sent" | "email_domain.created" | "email_domain.deleted" | "email_domain.verified" | "job.canceled" | "job.completed" | "job.created" | "member.availability_changed" | "member.capacity_changed" | "member.erased" | "member.invite_revoked" | "member.invited" | "member.joined" | "member.removed" | "member.role_changed" | "outbound.cancelled" | "outbound.created" | "outbound.deleted" | "outbound.scheduled" | "outbound.sending" | "outbound.sent" | "outbound.updated" | "outbound_recipient.failed" | "outbound_recipient.sent" | "outbound_recipient.skipped" | "saved_reply.created" | "saved_reply.deleted" | "saved_reply.updated" | "sla_policy.created" | "sla_policy.deleted" | "sla_policy.updated" | "tag.created" | "tag.deleted" | "tag.renamed" | "team.assignment_changed" | "team.created" | "team.deleted" | "team.renamed" | "team.roster_changed" | "upload.attached" | "upload.created" | "upload.expired" | "view.created" | "view.deleted" | "view.updated" | "webhook_endpoint.created" | "webhook_endpoint.deleted" | "webhook_endpoint.updated" | "workspace.created")[];
                    description?: string;
                    enabled?: boolean;
                    secret?: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooksByIdDeliveries: {
        parameters: {
            query?: {
                per_page?: number;
                starting_after?: string;
                sort?: "created_at" | "seq";
                order?: "asc" | "desc";
                /** @description The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys. */
                workspace?: string;
                state?: "pending" | "delivered" | "dead";
            };
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWebhooksByIdDeliveriesByDeliveryId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryWithAttempts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWebhooksByIdDeliveriesByDeliveryIdRetry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                id: string;
                /** @description A UUID. A malformed id, or another workspace's, answers 404. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Shutting down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "stopping";
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description METRICS_TOKEN is set and the request does not carry it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorList"];
                };
            };
        };
    };
    "getOpenapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                    };
                };
            };
            /** @description A dependency does not answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "unavailable";
                        reason: string;
                    };
                };
            };
        };
    };
}
