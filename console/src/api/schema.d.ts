// Generated from the OpenAPI document by `npm run gen:console-api`. Do not edit.
export interface paths {
    "/assistants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List assistants, newest first, one page at a time. */
        get: operations["listAssistants"];
        put?: never;
        /** Create an assistant from a template or a full config (at most the business's `assistants` quota, default 100). */
        post: operations["createAssistant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assistants/{assistant_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                assistant_id: number;
            };
            cookie?: never;
        };
        /** Get one assistant. */
        get: operations["getAssistant"];
        put?: never;
        post?: never;
        /** Delete an assistant; the oldest remaining one becomes the default. With If-Match, only the version it names. */
        delete: operations["deleteAssistant"];
        options?: never;
        head?: never;
        /** Rename an assistant and/or replace its whole config (`application/json`: omitted settings return to their defaults), or change only what is sent (`application/merge-patch+json`, RFC 7396). With If-Match, only the version it names. */
        patch: operations["updateAssistant"];
        trace?: never;
    };
    "/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List calls, newest first, one page at a time. Filters are applied as items are read, at most 1000 a page: a page may hold fewer than `limit` items, even none, while `has_more` is true; follow `next_cursor` until it is null. */
        get: operations["listCalls"];
        put?: never;
        /** Start an outbound call; it is returned queued, and analysed once it ends. */
        post: operations["createCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls/web": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a web call: a browser talks to the assistant over a WebSocket. The call is created queued (`channel: web`, `direction: inbound`, no numbers) and answered with `url` and a single-use `token`, valid 60 s: open `url`, send `{"type":"start","token":…}` first. A browser's `Origin` must be one of the business's `web_origins` or the console's. Minutes, variables and Idempotency-Key as POST /calls; a replay with the same key and body answers the same call with a new token (the earlier one stops working), or 409 `conflict` once the call was joined or ended. A call nobody joins ends `canceled` within about two minutes. */
        post: operations["createWebCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls/{call_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                call_id: number;
            };
            cookie?: never;
        };
        /** Get a call with its transcript, analysis, metrics, recording and webhook deliveries. */
        get: operations["getCall"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls/{call_id}/listen": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                call_id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Listen to a call in progress, phone or web: answered with `url` and a single-use `token`, valid 60 s. Open `url`, send `{"type":"start","token":…}`: the socket then streams both sides of the call mixed (16 kHz PCM16LE) and the live transcript, state, latency and tool events a web call gets; it is read-only. A browser's `Origin` is checked as for web calls. */
        post: operations["listenToCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls/{call_id}/end": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                call_id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a live call (queued, ringing or in progress; phone or web): the request is taken at once (202) and the call ends with `ended_reason: canceled` within about two seconds once its media stream runs (a queued or ringing call ends as soon as it is answered). Repeating it is harmless. */
        post: operations["endCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the messages callers left (take_message, notify_team), newest first; `from` inclusive, `to` exclusive, `from` not after `to`. Filters are applied as items are read, at most 1000 a page: a page may hold fewer than `limit` items, even none, while `has_more` is true; follow `next_cursor` until it is null. */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                message_id: number;
            };
            cookie?: never;
        };
        /** Get one message. */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/phone-numbers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the business's phone numbers, newest first, one page at a time. */
        get: operations["listPhoneNumbers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The business's minutes (remaining and reserved by calls under way), calls holding a concurrency slot, the cap, and calls queued. */
        get: operations["getUsage"];
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
        /** This document. */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the business's custom tools, newest first, one page at a time. */
        get: operations["listTools"];
        put?: never;
        /** Create a custom tool: `parameters` must be a valid JSON Schema (draft 2020-12) object, `server_url` a public https URL. At most the business's `tools` quota (default 100). */
        post: operations["createTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tools/{tool_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                tool_id: number;
            };
            cookie?: never;
        };
        /** Get one custom tool. */
        get: operations["getTool"];
        put?: never;
        post?: never;
        /** Delete a custom tool; refused (409 `tool_in_use`) while an assistant's `tool_ids` names it. */
        delete: operations["deleteTool"];
        options?: never;
        head?: never;
        /** Change a custom tool: the fields given replace theirs; calls starting afterwards use the new version. */
        patch: operations["updateTool"];
        trace?: never;
    };
    "/knowledge-bases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the business's knowledge bases, newest first, one page at a time. */
        get: operations["listKnowledgeBases"];
        put?: never;
        /** Create a knowledge base (at most the business's `knowledge_bases` quota, default 50). */
        post: operations["createKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge-bases/{knowledge_base_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        /** Get one knowledge base. */
        get: operations["getKnowledgeBase"];
        put?: never;
        post?: never;
        /** Delete a knowledge base with its documents; refused (409 `knowledge_base_in_use`) while an assistant's `knowledge_ids` names it. */
        delete: operations["deleteKnowledgeBase"];
        options?: never;
        head?: never;
        /** Rename or redescribe a knowledge base. */
        patch: operations["updateKnowledgeBase"];
        trace?: never;
    };
    "/knowledge-bases/{knowledge_base_id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        /** List the documents of a knowledge base, oldest first, with their status, one page at a time. */
        get: operations["listKnowledgeDocuments"];
        put?: never;
        /** Add a document: `text` (plain text or Markdown) or `url` (a public web page or PDF, fetched once). It is returned `processing`; ingestion runs in the background and ends `ready` or `failed` with a reason. At most the business's `documents` quota of documents per base (default 100; a failed one does not count), and 10,000 passages (`chunk_count`) across its ready documents: a document that would pass that ends `failed`, its reason saying how full the base is. A document keeps its first 500,000 characters and 2,000 passages: past those it still ends `ready`, with `truncated` true, and the rest is not searchable. */
        post: operations["addKnowledgeDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge-bases/{knowledge_base_id}/documents/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                document_id: number;
            };
            cookie?: never;
        };
        /** Get one document and its ingestion status. */
        get: operations["getKnowledgeDocument"];
        put?: never;
        post?: never;
        /** Delete a document and its passages; calls starting afterwards no longer find them. */
        delete: operations["deleteKnowledgeDocument"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge-bases/{knowledge_base_id}/search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search a knowledge base as the assistant would (keyword and vector, combined): the passages found, best first. */
        post: operations["searchKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the business's workflows, newest first, one page at a time. */
        get: operations["listWorkflows"];
        put?: never;
        /** Create a workflow. Besides each field, the graph is checked: unique node ids, edges to existing nodes, every node reachable from `start`, a way out of every conversation, fields in every collect, and tools the business has; each problem's `loc` points into `nodes`. At most the business's `workflows` quota (default 100). */
        post: operations["createWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workflows/{workflow_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                workflow_id: number;
            };
            cookie?: never;
        };
        /** Get one workflow. */
        get: operations["getWorkflow"];
        put?: never;
        post?: never;
        /** Delete a workflow; refused (409 `workflow_in_use`) while an assistant's `workflow_id` names it. */
        delete: operations["deleteWorkflow"];
        options?: never;
        head?: never;
        /** Change a workflow: the fields given replace theirs and the result is checked as a whole; calls starting afterwards use it. */
        patch: operations["updateWorkflow"];
        trace?: never;
    };
    "/business": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The business profile. */
        get: operations["getBusiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the profile: fields given replace theirs (`hours` day by day, `booking` and `payment` field by field); `payment.provider_key` is write-only. Each of `team_phones` must be a mobile number of a region the business texts (its numbers' regions and `sms_regions`): a premium-rate, toll-free or other special number, or one of another region, is a 422 item at `["body", "team_phones", i]` naming it. */
        patch: operations["updateBusiness"];
        trace?: never;
    };
    "/business/calendar-feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create, or rotate, the secret calendar feed URL (shown once; the previous URL stops working). */
        post: operations["createCalendarFeed"];
        /** Revoke the secret calendar feed URL. */
        delete: operations["revokeCalendarFeed"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/availability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Free slots of `days` days from `date` (the business’s local dates), as the assistant would offer them. */
        get: operations["getAvailability"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bookings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List bookings by start time, earliest first; `from`/`to` are local dates (inclusive) or ISO 8601 timestamps with an offset. */
        get: operations["listBookings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bookings/{booking_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                booking_id: number;
            };
            cookie?: never;
        };
        /** Get one booking. */
        get: operations["getBooking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bookings/{booking_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                booking_id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a booking: its time is free again; cancelling a cancelled booking returns it unchanged. */
        post: operations["cancelBooking"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bookings.ics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bookings (90 days back, 400 ahead) as an iCalendar feed. */
        get: operations["getBookingsCalendar"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calendars/{feed_file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same feed at its secret URL, for calendar apps (no API key: the token is the secret). */
        get: operations["getCalendarFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "call.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `call.started`
         * @description The call connected: an inbound call was answered, or an outbound one picked up. Calls that never connect send none. Sent only when `advanced.server_events` lists `call.started`; `data` is the call as GET /calls/{call_id} returns it when the attempt is made (redacted per `advanced.redact`; no transcript or recording under `advanced.hipaa`).
         */
        post: operations["callStartedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "call.transferred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `call.transferred`
         * @description The assistant handed the caller to a person (the `transfer` tool). The call then ends with `ended_reason` `transferred`, and `call.completed` follows. Sent only when `advanced.server_events` lists `call.transferred`; `data` is the call as GET /calls/{call_id} returns it when the attempt is made (redacted per `advanced.redact`; no transcript or recording under `advanced.hipaa`).
         */
        post: operations["callTransferredWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "call.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `call.completed`
         * @description The call ended and its analysis is stored: `summary`, `outcome`, `score`, `analysis`, `transcript` and `metrics` are final. Sent for every call that ends, connected or not. Sent only when `advanced.server_events` lists `call.completed`; `data` is the call as GET /calls/{call_id} returns it when the attempt is made (redacted per `advanced.redact`; no transcript or recording under `advanced.hipaa`).
         */
        post: operations["callCompletedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "tool.call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `tool.call`, to a custom tool's `server_url`
         * @description Sent when the assistant's model calls one of its custom tools (`config.tool_ids`), signed per Standard Webhooks with the business's `whsec_…` secret, like webhooks. The answer must come within the tool's `timeout_ms` (500–30000 ms, default 10000); redirects are never followed; at most 16 KiB of it is read.
         */
        post: operations["toolCallWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        CreateAssistantBody: {
            /** @default  */
            name?: string;
            /**
             * @default receptionist
             * @enum {string}
             */
            template?: "receptionist" | "scheduler" | "lead_qualifier" | "support" | "blank";
            /** @default null */
            config?: components["schemas"]["AssistantConfigInput"] | null;
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly is_default?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
        };
        UpdateAssistantBody: {
            name?: string;
            config?: components["schemas"]["AssistantConfigInput"];
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly is_default?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
        };
        CreateCallBody: {
            assistant_id: number;
            /** @example +15550100002 */
            to: string;
            /** @default null */
            phone_number_id?: number | null;
            /**
             * @description Values for `{{name}}` placeholders in the greetings, the system prompt, the idle, goodbye and voicemail messages and workflow texts. A call's own variables win over the assistant's, which win over the built-in ones every call has: `direction`, `business_name`, `customer_number`, `date`, `time` (docs/design.md "Variables"). An unknown placeholder stays as written.
             * @default {}
             */
            variables?: {
                [key: string]: string;
            };
        };
        CreateWebCallBody: {
            assistant_id: number;
            /**
             * @description Values for `{{name}}` placeholders in the greetings, the system prompt, the idle, goodbye and voicemail messages and workflow texts. A call's own variables win over the assistant's, which win over the built-in ones every call has: `direction`, `business_name`, `customer_number`, `date`, `time` (docs/design.md "Variables"). An unknown placeholder stays as written.
             * @default {}
             */
            variables?: {
                [key: string]: string;
            };
        };
        BusinessPatch: {
            display_name?: string;
            /** @example America/New_York */
            timezone?: string;
            hours?: {
                mon?: {
                    /** @example 09:00 */
                    start: string;
                    /** @example 09:00 */
                    end: string;
                }[];
                tue?: {
                    /** @example 09:00 */
                    start: string;
                    /** @example 09:00 */
                    end: string;
                }[];
                wed?: {
                    /** @example 09:00 */
                    start: string;
                    /** @example 09:00 */
                    end: string;
                }[];
                thu?: {
                    /** @example 09:00 */
                    start: string;
                    /** @example 09:00 */
                    end: string;
                }[];
                fri?: {
                    /** @example 09:00 */
                    start: string;
                    /** @example 09:00 */
                    end: string;
                }[];
                sat?: {
                    /** @example 09:00 */
                    start: string;
                    /** @example 09:00 */
                    end: string;
                }[];
                sun?: {
                    /** @example 09:00 */
                    start: string;
                    /** @example 09:00 */
                    end: string;
                }[];
            };
            closed_dates?: string[];
            address?: string;
            transfer_number?: string | "";
            team_emails?: string[];
            /** @description Mobile numbers team notices are texted to, each of a region the business texts (its lines' regions and `sms_regions`); premium-rate, toll-free and other special numbers are refused (422 naming the number). */
            team_phones?: string[];
            /** @description Regions (ISO 3166 alpha-2) every line may text besides its own; `[]` (the default): a line texts numbers of its own region only. */
            sms_regions?: string[];
            /**
             * @description Web pages (origins, `scheme://host[:port]`, http or https, no path) that may start web calls with this business's tokens; at most 20. Stored lowercase without a default port, duplicates removed. The console's own origin is always allowed. `[]` (the default): the console only.
             * @example [
             *       "https://shop.example.com",
             *       "http://localhost:8080"
             *     ]
             */
            web_origins?: string[];
            booking?: {
                services?: {
                    name: string;
                    duration_min: number;
                    /** @default null */
                    price?: number | null;
                }[];
                slot_step_min?: number;
                buffer_min?: number;
                min_notice_min?: number;
                max_days_ahead?: number;
            };
            payment?: {
                currency?: string;
                max_amount?: number;
                provider_key?: string | null;
                /** @description Read-only; accepted and ignored on input. */
                readonly provider_key_set?: unknown;
            };
            /** @description Read-only; accepted and ignored on input. */
            readonly calendar_feed_enabled?: unknown;
        };
        CreateToolBody: {
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
            name: string;
            description: string;
            /**
             * @default {
             *       "type": "object",
             *       "properties": {}
             *     }
             */
            parameters?: {
                /** @constant */
                type: "object";
            } & {
                [key: string]: unknown;
            };
            server_url: string;
            /** @default 10000 */
            timeout_ms?: number;
            /** @default null */
            filler?: string | null;
        };
        UpdateToolBody: {
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
            name?: string;
            description?: string;
            parameters?: {
                /** @constant */
                type: "object";
            } & {
                [key: string]: unknown;
            };
            server_url?: string;
            timeout_ms?: number;
            filler?: string | null;
        };
        CreateKnowledgeBaseBody: {
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
            name: string;
            /** @default  */
            description?: string;
        };
        UpdateKnowledgeBaseBody: {
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
            name?: string;
            /** @description The new description; `null` (or `""`) clears it. */
            description?: string | null;
        };
        CreateDocumentBody: {
            name: string;
            /** @description Plain text or Markdown, up to 60000 characters. */
            text?: string;
            /** @description A public web page (HTML) or PDF, fetched once (at most 5 MiB, 15 s). */
            url?: string;
        };
        SearchKnowledgeBody: {
            query: string;
            /** @default 3 */
            top_k?: number;
        };
        CreateWorkflowBody: {
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
            name: string;
            start: string;
            nodes: ({
                id: string;
                /** @constant */
                type: "say";
                text: string;
                next: string;
            } | {
                id: string;
                /** @constant */
                type: "conversation";
                prompt: string;
                /** @default [] */
                edges?: {
                    to: string;
                    /** @description A plain-language condition, e.g. "the caller is a new patient". */
                    when: string;
                }[];
                /**
                 * @description The call may end here (the model hangs up); a node without edges must be final.
                 * @default false
                 */
                final?: boolean;
                /** @description Caller turns this node may take before it is stuck (then `on_stuck`, or the call ends). */
                max_turns?: number;
                /**
                 * @description Where the call goes when the node is stuck; null or absent: the call ends politely.
                 * @default null
                 */
                on_stuck?: string | null;
            } | {
                id: string;
                /** @constant */
                type: "collect";
                /** @default  */
                prompt?: string;
                fields: {
                    name: string;
                    /** @enum {string} */
                    type: "string" | "number" | "boolean" | "date" | "enum";
                    /** @default  */
                    description?: string;
                    /** @default true */
                    required?: boolean;
                    options?: string[];
                }[];
                next: string;
                /** @description Caller turns this node may take before it is stuck (then `on_stuck`, or the call ends). */
                max_turns?: number;
                /**
                 * @description Where the call goes when the node is stuck; null or absent: the call ends politely.
                 * @default null
                 */
                on_stuck?: string | null;
            } | {
                id: string;
                /** @constant */
                type: "branch";
                cases: {
                    when: {
                        var: string;
                        /** @enum {string} */
                        op: "eq" | "ne" | "gt" | "lt" | "exists" | "in";
                        value?: string | number | boolean | (string | number)[];
                    };
                    to: string;
                }[];
                default: string;
            } | {
                id: string;
                /** @constant */
                type: "tool";
                tool: string;
                /**
                 * @description Each argument as text with `{{variables}}`; a lone `{{name}}` passes the value with its type.
                 * @default {}
                 */
                args?: {
                    [key: string]: string;
                };
                on_success: string;
                on_error: string;
            } | {
                id: string;
                /** @constant */
                type: "transfer";
                /** @default null */
                number?: string | null;
                /** @default  */
                text?: string;
            } | {
                id: string;
                /** @constant */
                type: "end";
                /** @default  */
                text?: string;
            })[];
        };
        UpdateWorkflowBody: {
            /** @description Read-only; accepted and ignored on input. */
            readonly id?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly created_at?: unknown;
            /** @description Read-only; accepted and ignored on input. */
            readonly updated_at?: unknown;
            name?: string;
            start?: string;
            nodes?: ({
                id: string;
                /** @constant */
                type: "say";
                text: string;
                next: string;
            } | {
                id: string;
                /** @constant */
                type: "conversation";
                prompt: string;
                /** @default [] */
                edges?: {
                    to: string;
                    /** @description A plain-language condition, e.g. "the caller is a new patient". */
                    when: string;
                }[];
                /**
                 * @description The call may end here (the model hangs up); a node without edges must be final.
                 * @default false
                 */
                final?: boolean;
                /** @description Caller turns this node may take before it is stuck (then `on_stuck`, or the call ends). */
                max_turns?: number;
                /**
                 * @description Where the call goes when the node is stuck; null or absent: the call ends politely.
                 * @default null
                 */
                on_stuck?: string | null;
            } | {
                id: string;
                /** @constant */
                type: "collect";
                /** @default  */
                prompt?: string;
                fields: {
                    name: string;
                    /** @enum {string} */
                    type: "string" | "number" | "boolean" | "date" | "enum";
                    /** @default  */
                    description?: string;
                    /** @default true */
                    required?: boolean;
                    options?: string[];
                }[];
                next: string;
                /** @description Caller turns this node may take before it is stuck (then `on_stuck`, or the call ends). */
                max_turns?: number;
                /**
                 * @description Where the call goes when the node is stuck; null or absent: the call ends politely.
                 * @default null
                 */
                on_stuck?: string | null;
            } | {
                id: string;
                /** @constant */
                type: "branch";
                cases: {
                    when: {
                        var: string;
                        /** @enum {string} */
                        op: "eq" | "ne" | "gt" | "lt" | "exists" | "in";
                        value?: string | number | boolean | (string | number)[];
                    };
                    to: string;
                }[];
                default: string;
            } | {
                id: string;
                /** @constant */
                type: "tool";
                tool: string;
                /**
                 * @description Each argument as text with `{{variables}}`; a lone `{{name}}` passes the value with its type.
                 * @default {}
                 */
                args?: {
                    [key: string]: string;
                };
                on_success: string;
                on_error: string;
            } | {
                id: string;
                /** @constant */
                type: "transfer";
                /** @default null */
                number?: string | null;
                /** @default  */
                text?: string;
            } | {
                id: string;
                /** @constant */
                type: "end";
                /** @default  */
                text?: string;
            })[];
        };
        AssistantConfigInput: {
            /**
             * @default assistant_first
             * @enum {string}
             */
            first_message_mode?: "assistant_first" | "wait_for_user" | "model_generated";
            /**
             * @description What the assistant says first on an inbound call (`assistant_first`, or `wait_for_user` greeting a silent caller); empty: the model writes the greeting. `{{name}}` placeholders are filled (docs/design.md "Variables").
             * @default
             */
            first_message?: string;
            /**
             * @description What the assistant says first on an outbound call, worded for a person the business called. Empty: `first_message`, unless it thanks the person for calling ("Thanks for calling", "Gracias por llamar", in any supported language); then a standard line in the assistant's language ("Hello, this is <business> calling. Do you have a moment?"). `{{name}}` placeholders are filled (docs/design.md "Variables").
             * @default
             */
            outbound_first_message?: string;
            /** @default  */
            system_prompt?: string;
            /** @default true */
            business_context?: boolean;
            /**
             * @description The language the assistant speaks and hears (recogniser with `transcriber.provider: deepgram`; default voice in standard mode): en English (flux-general-en; aura-2-thalia-en), es Spanish (flux-general-multi; aura-2-celeste-es), fr French (flux-general-multi; aura-2-agathe-fr), de German (flux-general-multi; aura-2-viktoria-de), it Italian (flux-general-multi; aura-2-livia-it), nl Dutch (flux-general-multi; aura-2-rhea-nl), ja Japanese (flux-general-multi; aura-2-izanami-ja), pt Portuguese (flux-general-multi; no Aura-2 voice: live mode only, in `live_voice`), hi Hindi (flux-general-multi; no Aura-2 voice: live mode only, in `live_voice`), ru Russian (flux-general-multi; no Aura-2 voice: live mode only, in `live_voice`); a region may follow (en-US, es-MX). With `transcriber.provider: openai` the OpenAI transcriber is told the language. It also picks the fixed lines (notices, fallback, fillers); anything else is a 422 listing the supported languages (docs/design.md "Languages").
             * @default en
             */
            language?: string;
            /**
             * @default standard
             * @enum {string}
             */
            mode?: "standard" | "live";
            /**
             * @description The OpenAI Realtime voice of `mode: live`.
             * @default marin
             * @enum {string}
             */
            live_voice?: "alloy" | "ash" | "ballad" | "coral" | "echo" | "sage" | "shimmer" | "verse" | "marin" | "cedar";
            /** @default {} */
            model?: components["schemas"]["ModelCfgInput"];
            /** @default {} */
            transcriber?: components["schemas"]["TranscriberCfgInput"];
            /** @default {} */
            voice?: components["schemas"]["VoiceCfgInput"];
            /** @default {} */
            builtin?: components["schemas"]["BuiltinToolsInput"];
            /** @default [] */
            tool_ids?: number[];
            /** @default null */
            knowledge_ids?: number[] | null;
            /** @default {} */
            analysis?: components["schemas"]["AnalysisCfgInput"];
            /** @default {} */
            advanced?: components["schemas"]["AdvancedCfgInput"];
            /**
             * @description Values for `{{name}}` placeholders in the greetings, the system prompt, the idle, goodbye and voicemail messages and workflow texts. A call's own variables win over the assistant's, which win over the built-in ones every call has: `direction`, `business_name`, `customer_number`, `date`, `time` (docs/design.md "Variables"). An unknown placeholder stays as written.
             * @default {}
             */
            variables?: {
                [key: string]: string;
            };
            /** @default null */
            workflow_id?: number | null;
            /** @default null */
            setup?: components["schemas"]["SimpleSetupInput"] | null;
        };
        ModelCfgInput: {
            /**
             * @default openai
             * @enum {string}
             */
            provider?: "openai" | "custom";
            /** @default gpt-5.6-luna */
            model?: string;
            /** @default 0.4 */
            temperature?: number;
            /** @default 300 */
            max_tokens?: number;
            /** @default  */
            custom_url?: string;
            /** @description API key of the custom model endpoint; write-only, never returned. */
            custom_key?: string;
            /** @description Read-only; accepted and ignored on input. */
            readonly custom_key_set?: unknown;
            /** @default true */
            priority?: boolean;
            /** @default true */
            race?: boolean;
            /**
             * @description The model that answers for the rest of a call once this one fails with a 5xx, 408 or 429, a connection error or a stall (no chunk for 3.5 s before the first, 1.5 s between two). Null (default): the caller hears the safety fallback line and the call ends `error`.
             * @default null
             */
            fallback?: {
                /**
                 * @default openai
                 * @enum {string}
                 */
                provider?: "openai" | "custom";
                model: string;
                /**
                 * @description For provider custom: the OpenAI-compatible base URL. It is sent the assistant's stored custom_key when it is the assistant's own custom_url, else no key.
                 * @default
                 */
                custom_url?: string;
            } | null;
        };
        SimpleSetupInput: {
            /**
             * @default receptionist
             * @enum {string}
             */
            role?: "receptionist" | "scheduler" | "lead_qualifier" | "support";
            /** @default  */
            name?: string;
            /**
             * @default friendly
             * @enum {string}
             */
            tone?: "friendly" | "professional" | "relaxed";
            /** @default  */
            helps_with?: string;
            /** @default  */
            always?: string;
            /** @default  */
            never?: string;
        };
        TranscriberCfgInput: {
            /**
             * @default deepgram
             * @enum {string}
             */
            provider?: "deepgram" | "openai";
            /**
             * @description For deepgram: flux-general-en, flux-general-multi (flux-general-en on a non-English assistant runs flux-general-multi). For openai: gpt-transcribe, gpt-live-transcribe, gpt-4o-transcribe, gpt-4o-mini-transcribe, gpt-4o-mini-transcribe-2025-12-15, whisper-1 (default gpt-transcribe when left out). Any other value is a 422.
             * @default flux-general-en
             */
            model?: string;
            /** @default [] */
            keyterms?: string[];
            /** @default 0.7 */
            eot_threshold?: number;
            /** @default true */
            eager?: boolean;
        };
        VoiceCfgInput: {
            /**
             * @description A Deepgram Aura-2 voice (aura-2-<name>-<language>) speaking the assistant's language; empty for the language's default voice (docs/design.md "Languages").
             * @default
             */
            voice_id?: string;
            /** @default 1 */
            speed?: number;
            /** @default 1 */
            volume?: number;
            /** @default true */
            read_titles?: boolean;
            /** @default [] */
            pronunciations?: components["schemas"]["PronounceInput"][];
        };
        PronounceInput: {
            word: string;
            say: string;
        };
        BuiltinToolsInput: {
            /** @default true */
            booking?: boolean;
            /** @default true */
            messages?: boolean;
            /** @default true */
            transfer?: boolean;
            /** @default false */
            sms?: boolean;
            /** @default false */
            payment_links?: boolean;
            /** @default true */
            knowledge?: boolean;
            /** @default true */
            end_call?: boolean;
            /** @default true */
            email_caller?: boolean;
            /** @default true */
            team_messages?: boolean;
        };
        AnalysisCfgInput: {
            /** @default  */
            summary_prompt?: string;
            /** @default  */
            success_rubric?: string;
            /**
             * @default score_10
             * @enum {string}
             */
            success_scale?: "pass_fail" | "score_10" | "descriptive";
            /** @default [] */
            structured?: components["schemas"]["StructuredFieldInput"][];
        };
        StructuredFieldInput: {
            name: string;
            /**
             * @default string
             * @enum {string}
             */
            type?: "string" | "number" | "boolean" | "enum" | "date";
            /** @default  */
            description?: string;
            /** @default [] */
            options?: string[];
        };
        AdvancedCfgInput: {
            /** @default 600 */
            max_duration_s?: number;
            /** @default 12 */
            silence_timeout_s?: number;
            /** @default [] */
            idle_messages?: string[];
            /** @default 2 */
            idle_max?: number;
            /** @default  */
            end_call_message?: string;
            /** @default [] */
            end_call_phrases?: string[];
            /** @default true */
            recording?: boolean;
            /** @default true */
            recording_notice?: boolean;
            /** @default true */
            ai_disclosure?: boolean;
            /**
             * @description Reserved: stored and returned exactly as sent, with no behaviour yet (docs/design.md "What happens on a call").
             * @default {}
             */
            waivers?: {
                [key: string]: {
                    [key: string]: string | number;
                };
            };
            /** @default 1 */
            interrupt_min_words?: number;
            /**
             * @default off
             * @enum {string}
             */
            background?: "off" | "office";
            /** @default true */
            voicemail_detection?: boolean;
            /** @default  */
            voicemail_message?: string;
            /** @default  */
            server_url?: string;
            /** @default false */
            hipaa?: boolean;
            /** @default true */
            memory?: boolean;
            /** @default true */
            safety_fallback?: boolean;
            /** @default true */
            fillers?: boolean;
            /**
             * @default anytime
             * @enum {string}
             */
            interruptions?: "anytime" | "after_greeting" | "never";
            /** @default 0 */
            greeting_delay_ms?: number;
            /** @default 0 */
            greet_after_silence_s?: number;
            /** @default true */
            keypad?: boolean;
            /** @default [] */
            redact?: ("card" | "ssn" | "email" | "phone" | "dob")[];
            /**
             * @description Days after a call ends that its record, transcript and recording are deleted (the call's `expires_at`); 0 keeps them.
             * @default 0
             */
            keep_days?: number;
            /** @default [] */
            server_events?: ("call.started" | "call.transferred" | "call.completed")[];
        };
        Assistant: {
            id: number;
            name: string;
            is_default: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            updated_at: string;
            config: components["schemas"]["AssistantConfig"];
        };
        AssistantConfig: {
            /** @enum {string} */
            first_message_mode: "assistant_first" | "wait_for_user" | "model_generated";
            /** @description What the assistant says first on an inbound call (`assistant_first`, or `wait_for_user` greeting a silent caller); empty: the model writes the greeting. `{{name}}` placeholders are filled (docs/design.md "Variables"). */
            first_message: string;
            /** @description What the assistant says first on an outbound call, worded for a person the business called. Empty: `first_message`, unless it thanks the person for calling ("Thanks for calling", "Gracias por llamar", in any supported language); then a standard line in the assistant's language ("Hello, this is <business> calling. Do you have a moment?"). `{{name}}` placeholders are filled (docs/design.md "Variables"). */
            outbound_first_message: string;
            system_prompt: string;
            business_context: boolean;
            /** @description The language the assistant speaks and hears (recogniser with `transcriber.provider: deepgram`; default voice in standard mode): en English (flux-general-en; aura-2-thalia-en), es Spanish (flux-general-multi; aura-2-celeste-es), fr French (flux-general-multi; aura-2-agathe-fr), de German (flux-general-multi; aura-2-viktoria-de), it Italian (flux-general-multi; aura-2-livia-it), nl Dutch (flux-general-multi; aura-2-rhea-nl), ja Japanese (flux-general-multi; aura-2-izanami-ja), pt Portuguese (flux-general-multi; no Aura-2 voice: live mode only, in `live_voice`), hi Hindi (flux-general-multi; no Aura-2 voice: live mode only, in `live_voice`), ru Russian (flux-general-multi; no Aura-2 voice: live mode only, in `live_voice`); a region may follow (en-US, es-MX). With `transcriber.provider: openai` the OpenAI transcriber is told the language. It also picks the fixed lines (notices, fallback, fillers); anything else is a 422 listing the supported languages (docs/design.md "Languages"). */
            language: string;
            /** @enum {string} */
            mode: "standard" | "live";
            live_voice: string;
            model: components["schemas"]["ModelCfg"];
            transcriber: components["schemas"]["TranscriberCfg"];
            voice: components["schemas"]["VoiceCfg"];
            builtin: components["schemas"]["BuiltinTools"];
            tool_ids: number[];
            knowledge_ids: number[] | null;
            analysis: components["schemas"]["AnalysisCfg"];
            advanced: components["schemas"]["AdvancedCfg"];
            /** @description Values for `{{name}}` placeholders in the greetings, the system prompt, the idle, goodbye and voicemail messages and workflow texts. A call's own variables win over the assistant's, which win over the built-in ones every call has: `direction`, `business_name`, `customer_number`, `date`, `time` (docs/design.md "Variables"). An unknown placeholder stays as written. */
            variables: {
                [key: string]: string;
            };
            workflow_id: number | null;
            setup: components["schemas"]["SimpleSetup"] | null;
        };
        ModelCfg: {
            /** @enum {string} */
            provider: "openai" | "custom";
            model: string;
            temperature: number;
            max_tokens: number;
            custom_url: string;
            custom_key_set: boolean;
            priority: boolean;
            race: boolean;
            /** @description The model that answers for the rest of a call once this one fails with a 5xx, 408 or 429, a connection error or a stall (no chunk for 3.5 s before the first, 1.5 s between two). Null (default): the caller hears the safety fallback line and the call ends `error`. */
            fallback: {
                /** @enum {string} */
                provider: "openai" | "custom";
                model: string;
                /** @description For provider custom: the OpenAI-compatible base URL. It is sent the assistant's stored custom_key when it is the assistant's own custom_url, else no key. */
                custom_url: string;
            } | null;
        };
        SimpleSetup: {
            /** @enum {string} */
            role: "receptionist" | "scheduler" | "lead_qualifier" | "support";
            name: string;
            /** @enum {string} */
            tone: "friendly" | "professional" | "relaxed";
            helps_with: string;
            always: string;
            never: string;
        };
        TranscriberCfg: {
            /** @enum {string} */
            provider: "deepgram" | "openai";
            /** @description For deepgram: flux-general-en, flux-general-multi (flux-general-en on a non-English assistant runs flux-general-multi). For openai: gpt-transcribe, gpt-live-transcribe, gpt-4o-transcribe, gpt-4o-mini-transcribe, gpt-4o-mini-transcribe-2025-12-15, whisper-1 (default gpt-transcribe when left out). Any other value is a 422. */
            model: string;
            keyterms: string[];
            eot_threshold: number;
            eager: boolean;
        };
        VoiceCfg: {
            /** @description A Deepgram Aura-2 voice (aura-2-<name>-<language>) speaking the assistant's language; empty for the language's default voice (docs/design.md "Languages"). */
            voice_id: string;
            speed: number;
            volume: number;
            read_titles: boolean;
            pronunciations: components["schemas"]["Pronounce"][];
        };
        Pronounce: {
            word: string;
            say: string;
        };
        BuiltinTools: {
            booking: boolean;
            messages: boolean;
            transfer: boolean;
            sms: boolean;
            payment_links: boolean;
            knowledge: boolean;
            end_call: boolean;
            email_caller: boolean;
            team_messages: boolean;
        };
        AnalysisCfg: {
            summary_prompt: string;
            success_rubric: string;
            /** @enum {string} */
            success_scale: "pass_fail" | "score_10" | "descriptive";
            structured: components["schemas"]["StructuredField"][];
        };
        StructuredField: {
            name: string;
            /** @enum {string} */
            type: "string" | "number" | "boolean" | "enum" | "date";
            description: string;
            options: string[];
        };
        AdvancedCfg: {
            max_duration_s: number;
            silence_timeout_s: number;
            idle_messages: string[];
            idle_max: number;
            end_call_message: string;
            end_call_phrases: string[];
            recording: boolean;
            recording_notice: boolean;
            ai_disclosure: boolean;
            /** @description Reserved: stored and returned exactly as sent, with no behaviour yet (docs/design.md "What happens on a call"). */
            waivers: {
                [key: string]: {
                    [key: string]: string | number;
                };
            };
            interrupt_min_words: number;
            /** @enum {string} */
            background: "off" | "office";
            voicemail_detection: boolean;
            voicemail_message: string;
            server_url: string;
            hipaa: boolean;
            memory: boolean;
            safety_fallback: boolean;
            fillers: boolean;
            /** @enum {string} */
            interruptions: "anytime" | "after_greeting" | "never";
            greeting_delay_ms: number;
            greet_after_silence_s: number;
            keypad: boolean;
            redact: ("card" | "ssn" | "email" | "phone" | "dob")[];
            /** @description Days after a call ends that its record, transcript and recording are deleted (the call's `expires_at`); 0 keeps them. */
            keep_days: number;
            server_events: ("call.started" | "call.transferred" | "call.completed")[];
        };
        Call: {
            id: number;
            assistant_id: number;
            /** @enum {string} */
            channel: "phone" | "web";
            /** @enum {string} */
            direction: "inbound" | "outbound";
            from_number: string;
            to_number: string;
            started_at: string | null;
            ended_at: string | null;
            duration_s: number;
            /** @enum {string} */
            status: "queued" | "ringing" | "in_progress" | "ended";
            outcome: ("resolved" | "unresolved" | "appointment_booked" | "message_taken" | "transferred" | "voicemail" | "no_answer" | "busy" | "failed") | null;
            ended_reason: ("caller_hung_up" | "assistant_ended" | "end_phrase" | "silence_timeout" | "max_duration" | "voicemail" | "no_answer" | "busy" | "transferred" | "failed" | "error" | "canceled") | null;
            summary: string;
            intent: string;
            caller_name: string | null;
            score: number | null;
            analysis: components["schemas"]["CallAnalysis"];
            /**
             * Format: date-time
             * @description When the call was created (POST /calls, or the inbound call reaching us).
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
            /** @description Who answered: `machine` when the carrier's answering-machine detection or the voicemail detector said so, `human` when the detection said so, `unknown` for an answered call without a verdict (inbound calls, detection off); null when the call was never answered. */
            answered_by: ("human" | "machine" | "unknown") | null;
            /** @description The carrier's id of the call (Twilio `CallSid`); null until the carrier has it. */
            carrier_call_id: string | null;
            /** @description The number the assistant transferred the caller to; null when it did not. */
            transferred_to: string | null;
            /** @description Whether the caller heard the recording notice to its last word; null when none was due (recording off, `recording_notice` off, `hipaa`) or the call never connected. */
            recording_notice_heard: boolean | null;
            /** @description Whether the caller heard the AI disclosure to its last word; null when none was due (`ai_disclosure` off) or the call never connected. */
            ai_disclosure_heard: boolean | null;
            /** @description Minutes charged to the plan: the call rounded up to whole minutes, never more than it reserved; null until the call has ended and been settled. */
            billed_minutes: number | null;
            /** @description When the call, its transcript and recording are deleted (`keep_days` after it ended); null when kept forever or not ended yet. */
            expires_at: string | null;
        };
        CallAnalysis: {
            summary?: string;
            success_evaluation?: (number | string) | null;
            structured_data?: {
                [key: string]: unknown;
            };
            /** @description Why the analysis gave up after its last attempt; then the only field (the outcome comes from `ended_reason`). */
            error?: string;
        };
        CallDetail: {
            id: number;
            assistant_id: number;
            /** @enum {string} */
            channel: "phone" | "web";
            /** @enum {string} */
            direction: "inbound" | "outbound";
            from_number: string;
            to_number: string;
            started_at: string | null;
            ended_at: string | null;
            duration_s: number;
            /** @enum {string} */
            status: "queued" | "ringing" | "in_progress" | "ended";
            outcome: ("resolved" | "unresolved" | "appointment_booked" | "message_taken" | "transferred" | "voicemail" | "no_answer" | "busy" | "failed") | null;
            ended_reason: ("caller_hung_up" | "assistant_ended" | "end_phrase" | "silence_timeout" | "max_duration" | "voicemail" | "no_answer" | "busy" | "transferred" | "failed" | "error" | "canceled") | null;
            summary: string;
            intent: string;
            caller_name: string | null;
            score: number | null;
            analysis: components["schemas"]["CallAnalysis"];
            /**
             * Format: date-time
             * @description When the call was created (POST /calls, or the inbound call reaching us).
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
            /** @description Who answered: `machine` when the carrier's answering-machine detection or the voicemail detector said so, `human` when the detection said so, `unknown` for an answered call without a verdict (inbound calls, detection off); null when the call was never answered. */
            answered_by: ("human" | "machine" | "unknown") | null;
            /** @description The carrier's id of the call (Twilio `CallSid`); null until the carrier has it. */
            carrier_call_id: string | null;
            /** @description The number the assistant transferred the caller to; null when it did not. */
            transferred_to: string | null;
            /** @description Whether the caller heard the recording notice to its last word; null when none was due (recording off, `recording_notice` off, `hipaa`) or the call never connected. */
            recording_notice_heard: boolean | null;
            /** @description Whether the caller heard the AI disclosure to its last word; null when none was due (`ai_disclosure` off) or the call never connected. */
            ai_disclosure_heard: boolean | null;
            /** @description Minutes charged to the plan: the call rounded up to whole minutes, never more than it reserved; null until the call has ended and been settled. */
            billed_minutes: number | null;
            /** @description When the call, its transcript and recording are deleted (`keep_days` after it ended); null when kept forever or not ended yet. */
            expires_at: string | null;
            transcript: components["schemas"]["TranscriptEntry"][];
            metrics: components["schemas"]["CallMetrics"] | Record<string, never>;
            recording_url: string | null;
            webhook_deliveries: components["schemas"]["WebhookDelivery"][];
            /** @description Every tool call of the call, in order (`[]` until it ends). */
            actions: components["schemas"]["ToolAction"][];
            /** @description The assistant's workflow on this call: the nodes visited and the variables collected (null without one, or until it ends). */
            workflow: {
                id: number;
                /** @description The nodes visited, in order, with when each was entered (ms from the call start). */
                path: {
                    node: string;
                    at_ms: number;
                }[];
                /** @description What `collect` nodes gathered (by field name) and what `tool` nodes returned (by node id); redacted per `advanced.redact`. */
                variables: {
                    [key: string]: unknown;
                };
            } | null;
        };
        TranscriptEntry: {
            /** @enum {string} */
            role: "assistant" | "user" | "tool";
            text: string;
            start_ms: number;
            end_ms: number;
            interrupted: boolean;
        };
        CallMetrics: {
            turns: components["schemas"]["TurnMetrics"][];
            interruptions: number;
            latency_ms: {
                p50: number | null;
                p95: number | null;
                max: number | null;
            };
            llm_tokens: {
                input: number;
                output: number;
            };
            tts_characters: number;
            stt_seconds: number;
            duration_s: number;
            /** @description What ran the call: `stt` (`deepgram`, `openai` for the OpenAI transcriber), `llm` (`openai`, `custom`, `openai-realtime`), `tts` (`deepgram`), `telephony` (`twilio`). Where a sandbox stood in for the vendor, its label ends `-sandbox` (`deepgram-sandbox`, `openai-sandbox`, `openai-realtime-sandbox`, `twilio-sandbox`); `custom` is always the business's own endpoint. */
            providers?: {
                [key: string]: string;
            };
            /** @description True when any sandbox provider or the sandbox carrier stood in. */
            sandbox?: boolean;
            /** @description Replies started on an eager end of turn, and how many of them were discarded (the caller went on). */
            eager?: {
                started: number;
                discarded: number;
            };
            /** @description Fillers ("One moment.") played while the model was slow. */
            fillers?: number;
            /** @description Provider faults on the call (docs/design.md "Provider faults"): the recogniser's and the voice's sockets replaced after a drop, the `model.fallback` taking over after the model failed (at most once a call), model failures with no fallback left (the call then ends `error`), and tools that ran past their timeout. Each is also logged. */
            faults?: {
                stt_reconnects: number;
                tts_reconnects: number;
                model_fallbacks: number;
                model_errors: number;
                tool_timeouts: number;
            };
            /** @description Outbound audio as the caller hears it: gaps where voice was due but late, and the largest lead over real time. */
            pacing?: {
                underruns: number;
                underrun_ms: number;
                max_lead_ms: number;
                voice_frames: number;
            };
        };
        TurnMetrics: {
            /** @description When the caller's turn ended, ms from the start of the call. */
            at_ms?: number | null;
            /** @description End of the caller's speech → first assistant audio played (echoed mark). */
            latency_ms?: number | null;
            /** @description End of speech → the recogniser's end of turn. */
            end_of_turn_ms?: number | null;
            /** @description Request → the model's first token. */
            llm_first_token_ms?: number | null;
            /** @description Wait for the model's first speakable clause, from the later of the end of turn and the request. */
            first_text_ms?: number | null;
            /** @description The voice's first audio byte after its text was sent. */
            tts_first_byte_ms?: number | null;
            /** @description End of turn → first audio frame sent to the carrier. */
            first_audio_sent_ms?: number | null;
            /** @description First frame sent → first frame played. */
            transport_ms?: number | null;
            /** @description The reply started on the eager end of turn and was kept. */
            eager?: boolean;
            /** @description Present (true) when the caller spoke while the assistant was talking and the reply waited for it to finish (`interruptions: never`, or during the notice); `latency_ms` then includes that wait. */
            held?: boolean;
        };
        WebhookDelivery: {
            /** @enum {string} */
            event_type: "call.started" | "call.transferred" | "call.completed";
            webhook_id: string;
            attempts: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T09:21:23.123Z
                 */
                at: string;
                status: number | null;
                latency_ms: number;
                error: string | null;
            }[];
            /** @enum {string} */
            state: "pending" | "delivered" | "failed";
        };
        PhoneNumber: {
            id: number;
            /** @example +15550100001 */
            number: string;
            label: string;
            /** @enum {string} */
            provider: "twilio" | "sandbox";
            assistant_id: number | null;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
        };
        AssistantList: {
            data: components["schemas"]["Assistant"][];
            limit: number;
            offset: number;
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        DeleteResult: {
            id: number;
            /** @constant */
            deleted: true;
        };
        CallsPage: {
            data: components["schemas"]["Call"][];
            limit: number;
            offset: number;
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        WebCall: {
            call_id: number;
            /** @description The WebSocket to open (`ws://` or `wss://`, path `/web/calls`). */
            url: string;
            /** @description Send it as the first message, `{"type":"start","token":…}`. Single use, valid 60 s; shown only here (the call stores its SHA-256). */
            token: string;
            /**
             * Format: date-time
             * @description When the token stops working: 60 s after it was issued.
             * @example 2026-11-22T09:21:23.123Z
             */
            expires_at: string;
        };
        CallListen: {
            /** @description The WebSocket to open (`ws://` or `wss://`, path `/web/listen`). */
            url: string;
            /** @description Send it as the first message, `{"type":"start","token":…}`. Single use, valid 60 s; shown only here (the call stores its SHA-256). */
            token: string;
            /**
             * Format: date-time
             * @description When the token stops working: 60 s after it was issued.
             * @example 2026-11-22T09:21:23.123Z
             */
            expires_at: string;
        };
        CallEndRequest: {
            id: number;
            /**
             * @description The call status when the request was taken (it is still live then).
             * @enum {string}
             */
            status: "queued" | "ringing" | "in_progress" | "ended";
        };
        PhoneNumberList: {
            data: components["schemas"]["PhoneNumber"][];
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        Tool: {
            id: number;
            name: string;
            description: string;
            parameters: {
                /** @constant */
                type: "object";
            } & {
                [key: string]: unknown;
            };
            server_url: string;
            timeout_ms: number;
            /** @description Said when the tool takes longer than about a second; null: the standard line. */
            filler: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            updated_at: string;
        };
        ToolList: {
            data: components["schemas"]["Tool"][];
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        DeleteToolResult: {
            id: number;
            /** @constant */
            deleted: true;
        };
        ToolCallEvent: {
            /** @constant */
            type: "tool.call";
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            timestamp: string;
            data: {
                tool: {
                    id: number;
                    name: string;
                };
                /** @description The model's arguments, already valid against the tool's `parameters` (invalid ones never reach the server). */
                arguments: {
                    [key: string]: unknown;
                };
                call: {
                    id: number;
                    assistant_id: number;
                    /** @enum {string} */
                    direction: "inbound" | "outbound";
                    from_number: string;
                    to_number: string;
                };
            };
        };
        KnowledgeBase: {
            id: number;
            name: string;
            description: string;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            updated_at: string;
        };
        KnowledgeBaseList: {
            data: components["schemas"]["KnowledgeBase"][];
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        KnowledgeDocument: {
            id: number;
            knowledge_base_id: number;
            name: string;
            /** @enum {string} */
            source: "text" | "url";
            /** @description The page or PDF fetched once (source `url`); null for text. */
            url: string | null;
            /**
             * @description processing: queued or being ingested; ready: searchable; failed: see failure_reason.
             * @enum {string}
             */
            status: "processing" | "ready" | "failed";
            failure_reason: string | null;
            chunk_count: number;
            /** @description Characters of text read from the document, at most 500,000 (0 until ready); past 2,000 passages it counts text that is not searchable (see truncated). */
            characters: number;
            /** @description true when the document is ready but only its beginning is searchable: its text passed 500,000 characters or its passages passed 2,000 (or a PDF was still being read at 15 s), and the rest was left out; split such a document. false otherwise (processing, failed, or whole). */
            truncated: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            updated_at: string;
        };
        KnowledgeDocumentList: {
            data: components["schemas"]["KnowledgeDocument"][];
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        KnowledgeSearchResult: {
            data: {
                document_id: number;
                document_name: string;
                text: string;
                /** @description Relevance, 0-1 (keyword and vector combined). */
                score: number;
            }[];
        };
        DeleteKnowledgeResult: {
            id: number;
            /** @constant */
            deleted: true;
        };
        Workflow: {
            id: number;
            name: string;
            start: string;
            nodes: components["schemas"]["WorkflowNode"][];
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            updated_at: string;
        };
        WorkflowNode: {
            id: string;
            /** @constant */
            type: "say";
            text: string;
            next: string;
        } | {
            id: string;
            /** @constant */
            type: "conversation";
            prompt: string;
            edges: {
                to: string;
                /** @description A plain-language condition, e.g. "the caller is a new patient". */
                when: string;
            }[];
            /** @description The call may end here (the model hangs up); a node without edges must be final. */
            final: boolean;
            /** @description Caller turns this node may take before it is stuck (then `on_stuck`, or the call ends). */
            max_turns?: number;
            /** @description Where the call goes when the node is stuck; null or absent: the call ends politely. */
            on_stuck: string | null;
        } | {
            id: string;
            /** @constant */
            type: "collect";
            prompt: string;
            fields: {
                name: string;
                /** @enum {string} */
                type: "string" | "number" | "boolean" | "date" | "enum";
                description: string;
                required: boolean;
                options?: string[];
            }[];
            next: string;
            /** @description Caller turns this node may take before it is stuck (then `on_stuck`, or the call ends). */
            max_turns?: number;
            /** @description Where the call goes when the node is stuck; null or absent: the call ends politely. */
            on_stuck: string | null;
        } | {
            id: string;
            /** @constant */
            type: "branch";
            cases: {
                when: {
                    var: string;
                    /** @enum {string} */
                    op: "eq" | "ne" | "gt" | "lt" | "exists" | "in";
                    value?: string | number | boolean | (string | number)[];
                };
                to: string;
            }[];
            default: string;
        } | {
            id: string;
            /** @constant */
            type: "tool";
            tool: string;
            /** @description Each argument as text with `{{variables}}`; a lone `{{name}}` passes the value with its type. */
            args: {
                [key: string]: string;
            };
            on_success: string;
            on_error: string;
        } | {
            id: string;
            /** @constant */
            type: "transfer";
            number: string | null;
            text: string;
        } | {
            id: string;
            /** @constant */
            type: "end";
            text: string;
        };
        WorkflowList: {
            data: components["schemas"]["Workflow"][];
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        DeleteWorkflowResult: {
            id: number;
            /** @constant */
            deleted: true;
        };
        Usage: {
            minutes_remaining: number;
            minutes_reserved: number;
            live_calls: number;
            max_concurrent_calls: number;
            queued_calls: number;
        };
        Message: {
            id: number;
            call_id: number;
            assistant_id: number;
            /** @description The caller's name as they gave it ('' when not given). */
            caller_name: string;
            /** @description The number to call back: the one the caller gave, else the line they called from. */
            caller_number: string;
            body: string;
            urgent: boolean;
            /**
             * @description `take_message`: a message for the team; `notify_team`: an alert the assistant raised.
             * @enum {string}
             */
            source: "take_message" | "notify_team";
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
        };
        MessagesPage: {
            data: components["schemas"]["Message"][];
            limit: number;
            offset: number;
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        ToolAction: {
            name: string;
            /** @description The arguments the model sent (redacted per `advanced.redact`). */
            arguments: {
                [key: string]: unknown;
            };
            ok: boolean;
            /** @description A short summary of what the tool did ('' when it failed). */
            result: string;
            /** @description What went wrong, in the words the model was told; null when it worked. */
            error: string | null;
            /** @description When the model asked, ms from the start of the call. */
            at_ms: number;
            /** @description How long the tool ran. */
            duration_ms: number;
        };
        Business: {
            display_name: string;
            timezone: string;
            hours: {
                mon: {
                    start: string;
                    end: string;
                }[];
                tue: {
                    start: string;
                    end: string;
                }[];
                wed: {
                    start: string;
                    end: string;
                }[];
                thu: {
                    start: string;
                    end: string;
                }[];
                fri: {
                    start: string;
                    end: string;
                }[];
                sat: {
                    start: string;
                    end: string;
                }[];
                sun: {
                    start: string;
                    end: string;
                }[];
            };
            closed_dates: string[];
            address: string;
            transfer_number: string;
            team_emails: string[];
            team_phones: string[];
            sms_regions: string[];
            web_origins: string[];
            booking: {
                services: {
                    name: string;
                    duration_min: number;
                    price: number | null;
                }[];
                slot_step_min: number;
                buffer_min: number;
                min_notice_min: number;
                max_days_ahead: number;
            };
            payment: {
                currency: string;
                max_amount: number;
                provider_key_set: boolean;
            };
            calendar_feed_enabled: boolean;
        };
        Booking: {
            id: number;
            call_id: number | null;
            assistant_id: number | null;
            service: string;
            /** @example 2026-11-26T09:00:00-05:00 */
            start: string;
            /** @example 2026-11-26T09:30:00-05:00 */
            end: string;
            timezone: string;
            name: string;
            phone: string | null;
            email: string | null;
            notes: string | null;
            /** @enum {string} */
            status: "confirmed" | "cancelled";
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            created_at: string;
        };
        BookingsPage: {
            data: components["schemas"]["Booking"][];
            limit: number;
            offset: number;
            has_more: boolean;
            /** @description Pass as `cursor` for the next page (with the same filters); null when `has_more` is false. */
            next_cursor: string | null;
        };
        Availability: {
            timezone: string;
            data: {
                start: string;
                end: string;
            }[];
        };
        CalendarFeed: {
            token: string;
            /** @example /api/v1/calendars/calf_….ics */
            path: string;
        };
        CalendarFeedRevoked: {
            /** @constant */
            revoked: true;
        };
        OpenApiDocument: {
            [key: string]: unknown;
        };
        ValidationItem: {
            loc: (string | number)[];
            msg: string;
            type: string;
            input?: unknown;
            ctx?: {
                [key: string]: unknown;
            };
        };
        HTTPValidationError: {
            detail: components["schemas"]["ValidationItem"][];
        };
        ErrorBody: {
            /** @enum {string} */
            code: "unauthorized" | "insufficient_minutes" | "not_found" | "method_not_allowed" | "idempotency_conflict" | "conflict" | "call_not_live" | "booking_cancelled" | "tool_in_use" | "workflow_in_use" | "knowledge_base_in_use" | "quota_exceeded" | "precondition_failed" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal" | "ingestion_unavailable" | "search_unavailable" | "web_calls_unavailable";
            detail: string;
        };
        CallStartedEvent: {
            /** @constant */
            type: "call.started";
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            timestamp: string;
            data: components["schemas"]["CallDetail"];
        };
        CallTransferredEvent: {
            /** @constant */
            type: "call.transferred";
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            timestamp: string;
            data: components["schemas"]["CallDetail"];
        };
        CallCompletedEvent: {
            /** @constant */
            type: "call.completed";
            /**
             * Format: date-time
             * @example 2026-11-22T09:21:23.123Z
             */
            timestamp: string;
            data: components["schemas"]["CallDetail"];
        };
    };
    responses: {
        /** @description Missing or invalid API key (`unauthorized`). */
        Unauthorized: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The body is over 256 KiB (`payload_too_large`). */
        PayloadTooLarge: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The body is not sent as JSON (`unsupported_media_type`): `Content-Type` must be `application/json` or `application/*+json`, a `charset` only `utf-8`; a missing one is refused too. */
        UnsupportedMediaType: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The plan has no minutes left (`insufficient_minutes`). */
        InsufficientMinutes: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Missing, or owned by another business (`not_found`). */
        NotFound: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Idempotency-Key reused with a different body, or its first request still running after 10 s (`idempotency_conflict`). */
        IdempotencyConflict: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description If-Match names a version that is no longer current (`precondition_failed`); nothing was written. Read the resource again and retry. */
        PreconditionFailed: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A parameter or field is invalid; `detail` lists each one. */
        ValidationFailed: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["HTTPValidationError"];
            };
        };
        /** @description More than 240 requests a minute on this key, or more than 20 failed authentications a minute from this address (`rate_limited`). */
        RateLimited: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Unexpected error (`internal`), with a request id to quote. */
        Internal: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Idempotency-Key reused with a different body, or its first request still running after 10 s (`idempotency_conflict`); or the business is at one of its quotas (`quota_exceeded`): the detail names the quota and its value, a delete frees a place and ops can raise it. */
        CreateConflict: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Idempotency-Key reused with a different body, or its first request still running (`idempotency_conflict`); or a replay for a web call that was already joined or has ended (`conflict`): create a new one. */
        WebCallConflict: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The call is not in progress (queued, ringing or ended): `call_not_live`. */
        CallNotLive: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The call has already ended (`conflict`). */
        CallAlreadyEnded: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description This deployment has no web-call endpoint configured (`web_calls_unavailable`). */
        WebCallsUnavailable: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The booking was cancelled (`booking_cancelled`), or the feed changed meanwhile (`conflict`). */
        Conflict: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Assistants' `tool_ids` still name the tool (`tool_in_use`); the detail lists them. */
        ToolInUse: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The tool changed meanwhile (`conflict`): read it again and retry. */
        ToolConflict: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Assistants' `knowledge_ids` still name the knowledge base (`knowledge_base_in_use`); the detail lists them. */
        KnowledgeBaseInUse: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The embeddings service did not answer (`search_unavailable`); retry shortly. */
        SearchUnavailable: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The document could not be queued for ingestion (`ingestion_unavailable`); nothing was kept; retry shortly. */
        IngestionUnavailable: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Assistants' `workflow_id` still names the workflow (`workflow_in_use`); the detail lists them. */
        WorkflowInUse: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The workflow changed meanwhile (`conflict`): read it again and retry. */
        WorkflowConflict: {
            headers: {
                "X-API-Version": components["headers"]["X-API-Version"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: {
        /** @description The event id: the same on every attempt of one delivery, so receivers de-duplicate on it. */
        WebhookId: string;
        /** @description Unix seconds when THIS attempt was sent (fresh on every retry); reject ones far from your clock. */
        WebhookTimestamp: string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed by the base64 after `whsec_` in the business's webhook secret. Verify with any Standard Webhooks library. */
        WebhookSignature: string;
        /** @description Unique per request (`tool_<call id>_<tool id>_<n>`, n counting this tool's calls on this call): a tool call is never retried. */
        ToolCallId: string;
    };
    requestBodies: never;
    headers: {
        /** @description Version of the API that answered. */
        "X-API-Version": string;
        /** @description IETF draft rate-limit policy: 240 requests per rolling 60 s per API key. */
        "RateLimit-Policy": string;
        /** @description Requests remaining (r) and seconds until the window frees one (t). */
        RateLimit: string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description Strong entity tag of the assistant as stored (its version): send it back in `If-Match` to update or delete only that version. */
        ETag: string;
        /** @description `no-store` on an answer that holds a credential (a web call token): no cache or proxy may keep it. */
        "Cache-Control": string;
        /** @description RFC 6750 challenge: `Bearer realm="api"`, with `error="invalid_token"` when a key was sent but refused. */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAssistants: {
        parameters: {
            query?: {
                /** @description At most this many assistants (default and maximum 200). A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer. */
                limit?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
                /** @description Assistants to skip, newest first (0 to 1000); not with `cursor`. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of assistants. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createAssistant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; another body is a 409 `idempotency_conflict`. Only a 2xx is remembered. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAssistantBody"];
            };
        };
        responses: {
            /** @description The new assistant. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["CreateConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getAssistant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                assistant_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The assistant. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteAssistant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Write only if the assistant is still at this version: an `ETag` from an earlier response (a list of them, or `*` for any version). A stale tag is a 412 `precondition_failed` and nothing is written; without the header the write is unconditional. */
                "If-Match"?: string;
            };
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                assistant_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    updateAssistant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Write only if the assistant is still at this version: an `ETag` from an earlier response (a list of them, or `*` for any version). A stale tag is a 412 `precondition_failed` and nothing is written; without the header the write is unconditional. */
                "If-Match"?: string;
            };
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                assistant_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAssistantBody"];
                "application/merge-patch+json": Record<string, never>;
            };
        };
        responses: {
            /** @description The updated assistant. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listCalls: {
        parameters: {
            query?: {
                /** @description At most this many calls (1 to 200, default 50). A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer. */
                limit?: number;
                /** @description Calls to skip, newest first (spec; no upper bound). Skipping N calls reads N keys, so a deep offset is slow: walk with `cursor` instead, which costs one page at any depth. Not with `cursor`. */
                offset?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
                assistant_id?: number;
                /** @description Only calls in this direction (web calls are `inbound`). */
                direction?: "inbound" | "outbound";
                /** @description Only calls over this channel: `phone`, or `web` (browser calls, POST /calls/web). */
                channel?: "phone" | "web";
                /** @description Only calls in this status. */
                status?: "queued" | "ringing" | "in_progress" | "ended";
                /** @description Only calls with this outcome. */
                outcome?: "resolved" | "unresolved" | "appointment_booked" | "message_taken" | "transferred" | "voicemail" | "no_answer" | "busy" | "failed";
                /** @description Only calls created at or after this instant (ISO 8601; a date is its midnight UTC). */
                created_after?: string;
                /** @description Only calls created before this instant (exclusive); after `created_after` or equal to it. */
                created_before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of calls. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallsPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; another body is a 409 `idempotency_conflict`. Only a 2xx is remembered. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCallBody"];
            };
        };
        responses: {
            /** @description The call in its initial state. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Call"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientMinutes"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createWebCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; another body is a 409 `idempotency_conflict`. Only a 2xx is remembered. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebCallBody"];
            };
        };
        responses: {
            /** @description The call, where to connect, and its token (never cached: `Cache-Control: no-store`). */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebCall"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientMinutes"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["WebCallConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["WebCallsUnavailable"];
        };
    };
    getCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                call_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The call. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listenToCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                call_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where to connect, and the token. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallListen"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["CallNotLive"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["WebCallsUnavailable"];
        };
    };
    endCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                call_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request is taken; the call is still live. */
            202: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallEndRequest"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["CallAlreadyEnded"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
                /** @description Messages to skip (0 to 1000); not with `cursor`. */
                offset?: number;
                from?: string;
                to?: string;
                call_id?: number;
                urgent?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of messages. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagesPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                message_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listPhoneNumbers: {
        parameters: {
            query?: {
                /** @description At most this many items (1 to 200, default 200). A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer. */
                limit?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of phone numbers. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PhoneNumberList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage now. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description API Gateway's stage-wide throttle (a backstop for the whole API) refused the request; retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listTools: {
        parameters: {
            query?: {
                /** @description At most this many items (1 to 200, default 200). A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer. */
                limit?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of tools. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createTool: {
        parameters: {
            query?: never;
            header?: {
                /** @description Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; another body is a 409 `idempotency_conflict`. Only a 2xx is remembered. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateToolBody"];
            };
        };
        responses: {
            /** @description The new tool. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tool"];
                };
            };
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["CreateConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                tool_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tool. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tool"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                tool_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteToolResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ToolInUse"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    updateTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                tool_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateToolBody"];
            };
        };
        responses: {
            /** @description The updated tool. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tool"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ToolConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listKnowledgeBases: {
        parameters: {
            query?: {
                /** @description At most this many items (1 to 200, default 200). A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer. */
                limit?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of bases. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createKnowledgeBase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; another body is a 409 `idempotency_conflict`. Only a 2xx is remembered. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateKnowledgeBaseBody"];
            };
        };
        responses: {
            /** @description The new base. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBase"];
                };
            };
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["CreateConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The base. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBase"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteKnowledgeResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["KnowledgeBaseInUse"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    updateKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateKnowledgeBaseBody"];
            };
        };
        responses: {
            /** @description The updated base. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBase"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listKnowledgeDocuments: {
        parameters: {
            query?: {
                /** @description At most this many items (1 to 200, default 200). A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer. */
                limit?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of documents. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeDocumentList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    addKnowledgeDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; another body is a 409 `idempotency_conflict`. Only a 2xx is remembered. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDocumentBody"];
            };
        };
        responses: {
            /** @description The document, processing. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeDocument"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["CreateConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["IngestionUnavailable"];
        };
    };
    getKnowledgeDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                document_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeDocument"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteKnowledgeDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                document_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteKnowledgeResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    searchKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                knowledge_base_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchKnowledgeBody"];
            };
        };
        responses: {
            /** @description The passages. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeSearchResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["SearchUnavailable"];
        };
    };
    listWorkflows: {
        parameters: {
            query?: {
                /** @description At most this many items (1 to 200, default 200). A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer. */
                limit?: number;
                /** @description The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of workflows. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; another body is a 409 `idempotency_conflict`. Only a 2xx is remembered. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkflowBody"];
            };
        };
        responses: {
            /** @description The new workflow. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["CreateConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                workflow_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    deleteWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                workflow_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteWorkflowResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["WorkflowInUse"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    updateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                workflow_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkflowBody"];
            };
        };
        responses: {
            /** @description The updated workflow. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["WorkflowConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getBusiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The profile. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Business"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    updateBusiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BusinessPatch"];
            };
        };
        responses: {
            /** @description The profile as stored. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Business"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    createCalendarFeed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed token and path. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalendarFeed"];
                };
            };
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    revokeCalendarFeed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalendarFeedRevoked"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getAvailability: {
        parameters: {
            query: {
                date: string;
                service?: string;
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The free slots, ISO 8601 with the business’s UTC offset. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Availability"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    listBookings: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                status?: "confirmed" | "cancelled";
                call_id?: number;
                limit?: number;
                cursor?: string;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of bookings. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BookingsPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getBooking: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                booking_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The booking. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Booking"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    cancelBooking: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Canonical decimal: digits only, no sign, spaces or leading zeros. */
                booking_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled booking. */
            200: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Booking"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getBookingsCalendar: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The iCalendar feed. */
            200: {
                headers: {
                    /** @description Send it back as If-None-Match: 304 when nothing changed. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/calendar": string;
                };
            };
            /** @description Unchanged since the ETag sent in If-None-Match. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
        };
    };
    getCalendarFeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token from POST /business/calendar-feed, then `.ics`. */
                feed_file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The iCalendar feed. */
            200: {
                headers: {
                    /** @description Send it back as If-None-Match: 304 when nothing changed. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/calendar": string;
                };
            };
            /** @description Unchanged since the ETag sent in If-None-Match. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            /** @description More than 60 requests a minute from this address, or for this feed (`rate_limited`); wait `Retry-After` seconds. */
            429: {
                headers: {
                    "X-API-Version": components["headers"]["X-API-Version"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    callStartedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt of one delivery, so receivers de-duplicate on it. */
                "webhook-id": components["parameters"]["WebhookId"];
                /** @description Unix seconds when THIS attempt was sent (fresh on every retry); reject ones far from your clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed by the base64 after `whsec_` in the business's webhook secret. Verify with any Standard Webhooks library. */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallStartedEvent"];
            };
        };
        responses: {
            /** @description Gone: the delivery stops at once and is marked failed. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Delivered: any 2xx, within 10 s. The body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx, other 4xx, 5xx, a timeout or a network error) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±10 %), honouring `Retry-After` on 429 and 503. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    callTransferredWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt of one delivery, so receivers de-duplicate on it. */
                "webhook-id": components["parameters"]["WebhookId"];
                /** @description Unix seconds when THIS attempt was sent (fresh on every retry); reject ones far from your clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed by the base64 after `whsec_` in the business's webhook secret. Verify with any Standard Webhooks library. */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallTransferredEvent"];
            };
        };
        responses: {
            /** @description Gone: the delivery stops at once and is marked failed. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Delivered: any 2xx, within 10 s. The body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx, other 4xx, 5xx, a timeout or a network error) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±10 %), honouring `Retry-After` on 429 and 503. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    callCompletedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt of one delivery, so receivers de-duplicate on it. */
                "webhook-id": components["parameters"]["WebhookId"];
                /** @description Unix seconds when THIS attempt was sent (fresh on every retry); reject ones far from your clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed by the base64 after `whsec_` in the business's webhook secret. Verify with any Standard Webhooks library. */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallCompletedEvent"];
            };
        };
        responses: {
            /** @description Gone: the delivery stops at once and is marked failed. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Delivered: any 2xx, within 10 s. The body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx, other 4xx, 5xx, a timeout or a network error) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±10 %), honouring `Retry-After` on 429 and 503. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    toolCallWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Unique per request (`tool_<call id>_<tool id>_<n>`, n counting this tool's calls on this call): a tool call is never retried. */
                "webhook-id": components["parameters"]["ToolCallId"];
                /** @description Unix seconds when THIS attempt was sent (fresh on every retry); reject ones far from your clock. */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed by the base64 after `whsec_` in the business's webhook secret. Verify with any Standard Webhooks library. */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ToolCallEvent"];
            };
        };
        responses: {
            /** @description The tool's result, given to the model: a JSON object as it is, any other JSON or plain text under `result`. Up to 4,000 characters reach the model; a longer reply is cut and the model told so. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                    "text/plain": string;
                };
            };
            /** @description Any other status, a redirect, no answer in time or an unreachable server: the model hears that the tool did not work and tells the caller. Never retried. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
