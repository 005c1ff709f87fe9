import type { FastifyInstance } from 'fastify';
import type { Adapter } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { FederationError } from './google.federation.js';
import type { GoogleFederation } from './google.federation.js';
import type { IdpAccountsRepo } from './idp.accounts.repo.js';
import type { InteractionPages, InteractionPaths } from './idp.interaction-pages.js';
import { loginResult, NOTICES } from './idp.interactions.routes.js';
import { AMR_GOOGLE } from './idp.provider.js';

export interface GoogleRoutesOptions {
  provider: Provider;
  paths: InteractionPaths;
  respond: InteractionPages;
  google: GoogleFederation;
  accounts: IdpAccountsRepo;
  /** Pending trips to Google by `state`, in the database, so any server can finish one. */
  trips: Adapter;
  now: () => Date;
}

/** Binds the trip to the browser that started it: a callback from any other browser is refused. */
const TRIP_COOKIE = 'coffer_idp_fed';
const TRIP_TTL_SEC = 10 * 60;

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

interface Trip {
  uid: string;
  nonce: string;
  codeVerifier: string;
}

function tripOf(params: unknown): Trip | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { uid, nonce, codeVerifier } = params as Record<string, unknown>;
  if (typeof uid !== 'string' || typeof nonce !== 'string' || typeof codeVerifier !== 'string')
    return undefined;
  return { uid, nonce, codeVerifier };
}

/**
 * "Continue with Google": from an interaction to Google and back to our fixed callback (the one
 * registered at Google), which signs the Google identity's account in to that interaction.
 */
export function googleRoutes(app: FastifyInstance, options: GoogleRoutesOptions): void {
  const { provider, paths, respond, google } = options;
  const cookieAttributes = (secure: boolean) =>
    `Path=${paths.googleCallback}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  app.get<{ Params: { uid: string } }>(`${paths.base}/:uid/google`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    const trip = google.newRequest();
    let url: URL;
    try {
      url = await google.authorizationUrl(trip);
    } catch (error) {
      request.log.warn({ err: error }, 'Google sign-in unavailable');
      return respond.signIn(reply, 502, interaction.uid, { alert: NOTICES['google-failed'] });
    }
    await options.trips.upsert(
      trip.state,
      { params: { uid: interaction.uid, nonce: trip.nonce, codeVerifier: trip.codeVerifier } },
      TRIP_TTL_SEC,
    );
    const secure = request.protocol === 'https';
    void reply.header(
      'set-cookie',
      `${TRIP_COOKIE}=${trip.state}; Max-Age=${TRIP_TTL_SEC}; ${cookieAttributes(secure)}`,
    );
    return reply.header('cache-control', 'no-store').redirect(url.href, 303);
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(
    paths.googleCallback,
    async (request, reply) => {
      const state = request.query.state ?? '';
      const trip = state === '' ? undefined : tripOf((await options.trips.find(state))?.params);
      void reply.header(
        'set-cookie',
        `${TRIP_COOKIE}=; Max-Age=0; ${cookieAttributes(request.protocol === 'https')}`,
      );
      if (trip === undefined || cookieValue(request.headers.cookie, TRIP_COOKIE) !== state) {
        return respond.expired(reply);
      }
      await options.trips.destroy(state);
      const back = (notice: string) => reply.redirect(`${paths.page(trip.uid)}?notice=${notice}`, 303);
      if (request.query.error !== undefined) return back('google-cancelled');
      const code = request.query.code ?? '';
      if (code === '') return back('google-failed');

      let accountId: string;
      try {
        const identity = await google.complete(code, {
          state,
          nonce: trip.nonce,
          codeVerifier: trip.codeVerifier,
        });
        accountId = (await options.accounts.resolveUpstream(identity, options.now())).id;
      } catch (error) {
        if (!(error instanceof FederationError)) throw error;
        request.log.warn({ err: error }, 'Google sign-in failed');
        return respond.signIn(reply, 400, trip.uid, { alert: { message: error.userMessage } });
      }

      // What provider.interactionResult does, by the stored uid: the interaction cookie is scoped to
      // the interaction's path and does not reach this callback.
      const interaction = await provider.Interaction.find(trip.uid);
      if (interaction === undefined) return respond.expired(reply);
      interaction.result = loginResult(accountId, AMR_GOOGLE);
      await interaction.save(interaction.exp - Math.floor(options.now().getTime() / 1000));
      request.log.info({ accountId }, 'idp sign-in through Google');
      return reply.header('cache-control', 'no-store').redirect(interaction.returnTo, 303);
    },
  );
}
