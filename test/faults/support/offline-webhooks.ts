import type { HostResolver } from '../../../src/webhooks/host-resolver.js';
import type { OutgoingPost, WebhookTransport } from '../../../src/webhooks/http-transport.js';

/**
 * Stand-ins for the webhooks' name resolution and HTTP client, so hostile webhook URLs never
 * reach the network: every name resolves to one public address (never contacted), and every
 * POST is answered here, echoing the verification handshake.
 */
export interface OfflineWebhooks {
  resolver: HostResolver;
  transport: WebhookTransport;
  /** The URL of every POST the service made, in order. */
  posts: string[];
}

export function offlineWebhooks(): OfflineWebhooks {
  const posts: string[] = [];
  return {
    posts,
    resolver: { resolve: async () => [{ address: '93.184.215.14', family: 4 }] },
    transport: {
      async post(request: OutgoingPost) {
        posts.push(request.target.url.href);
        const { verificationToken } = JSON.parse(request.body) as { verificationToken?: string };
        return { status: 200, body: JSON.stringify({ verificationToken }) };
      },
      close: () => undefined,
    },
  };
}
