import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { renderMessagePage, renderSignInPage, renderSignUpPage } from './idp.pages.js';
import type { MessagePageOptions, PageContext, SignInPageOptions, SignUpPageOptions } from './idp.pages.js';

/** An oidc-provider interaction (one sign-in in progress). */
export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** URLs of the provider's own pages under `basePath` (e.g. `/idp`). */
export function interactionPaths(basePath: string) {
  const base = `${basePath}/interaction`;
  const of = (uid: string) => `${base}/${encodeURIComponent(uid)}`;
  return {
    base,
    page: of,
    signUp: (uid: string) => `${of(uid)}/signup`,
    login: (uid: string) => `${of(uid)}/login`,
    resend: (uid: string) => `${of(uid)}/resend`,
    forgot: (uid: string) => `${of(uid)}/forgot`,
    google: (uid: string) => `${of(uid)}/google`,
    googleCallback: `${basePath}/federation/google/callback`,
  };
}

export type InteractionPaths = ReturnType<typeof interactionPaths>;

export interface InteractionPagesOptions {
  provider: Provider;
  paths: InteractionPaths;
  pages: PageContext;
  googleEnabled: boolean;
  /** Where the passkey scripts are served (`/idp/assets`): the sign-in page offers "Sign in with a passkey". */
  passkeyAssets?: string;
}

export function sendHtml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}

/** Answers with a message page (an expired sign-in, "sign in first", "signed out everywhere"). */
export function sendMessage(
  reply: FastifyReply,
  status: number,
  pages: PageContext,
  message: MessagePageOptions,
): FastifyReply {
  return sendHtml(reply, status, renderMessagePage(pages, message));
}

/** What the interaction routes (ours and Google's) answer with. */
export function createInteractionPages(options: InteractionPagesOptions) {
  const { provider, paths, pages } = options;
  const googleHref = (uid: string) => (options.googleEnabled ? paths.google(uid) : undefined);

  function expired(reply: FastifyReply): FastifyReply {
    return sendMessage(reply, 400, pages, {
      title: 'This sign-in page has expired',
      message: 'Sign-in pages are valid for an hour. Go back to Coffer and sign in again.',
      kind: 'error',
    });
  }

  return {
    expired,

    signIn(reply: FastifyReply, status: number, uid: string, extra: Partial<SignInPageOptions> = {}) {
      return sendHtml(
        reply,
        status,
        renderSignInPage(pages, {
          action: paths.login(uid),
          signUpHref: paths.signUp(uid),
          googleHref: googleHref(uid),
          passkey:
            options.passkeyAssets === undefined
              ? undefined
              : {
                  optionsUrl: `${paths.page(uid)}/passkey/options`,
                  verifyUrl: `${paths.page(uid)}/passkey/verify`,
                  assets: options.passkeyAssets,
                },
          ...extra,
        }),
      );
    },

    signUp(reply: FastifyReply, status: number, uid: string, extra: Partial<SignUpPageOptions> = {}) {
      return sendHtml(
        reply,
        status,
        renderSignUpPage(pages, {
          action: paths.signUp(uid),
          signInHref: paths.page(uid),
          googleHref: googleHref(uid),
          ...extra,
        }),
      );
    },

    /** The interaction this browser is in (by its cookie), or null after answering "expired". */
    async interactionOf(
      request: FastifyRequest<{ Params: { uid: string } }>,
      reply: FastifyReply,
    ): Promise<Interaction | null> {
      try {
        const interaction = await provider.interactionDetails(request.raw, reply.raw);
        if (interaction.uid === request.params.uid) return interaction;
      } catch (error) {
        if (!(error instanceof errors.SessionNotFound)) throw error;
      }
      expired(reply);
      return null;
    },

    /**
     * Hands `result` to oidc-provider and sends the browser back to it. After consent the earlier
     * submission (login, create) is kept, or a requested `prompt=create` would count as unanswered.
     */
    /** Hands `result` to oidc-provider; returns where the browser goes next (for script-driven steps). */
    async result(request: FastifyRequest, reply: FastifyReply, result: InteractionResults): Promise<string> {
      return provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    },

    async finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
      const returnTo = await provider.interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: 'consent' in result,
      });
      return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
    },
  };
}

export type InteractionPages = ReturnType<typeof createInteractionPages>;
