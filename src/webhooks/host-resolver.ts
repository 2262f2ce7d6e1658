import dns from 'node:dns';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution, behind an interface so tests can answer with any address without DNS. */
export interface HostResolver {
  /** Every address of the host name. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
}

/** The operating system's resolver (hosts file, then DNS), as Node's own connections use it. */
export const systemResolver: HostResolver = {
  async resolve(hostname) {
    const addresses = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  },
};
