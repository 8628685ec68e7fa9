/**
 * The part of `oidc-provider` (which ships no typings) that test/support/oidc-idp.ts uses.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      params?: Record<string, unknown>;
      provider: Provider;
    };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: { new (init: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: never[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; params: Record<string, unknown> }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      opts?: Record<string, unknown>,
    ): Promise<void>;
  }
}
