/** Hono context variables set by the middleware for the route handlers. */
export interface ApiEnv {
  Variables: {
    businessId: number;
    keyId: string;
    requestId: string;
  };
}
