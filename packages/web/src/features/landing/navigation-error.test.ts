import { describe, expect, it } from 'vitest';
import { navigationErrorMessage, navigationErrorState } from './navigation-error';

describe('navigationErrorMessage', () => {
  it('explains a part of the app that did not load, and retries the failed path', () => {
    const message = navigationErrorMessage(navigationErrorState('load', '/myfiles?x=1'));
    expect(message?.title).toBe('That page could not be loaded');
    expect(message?.retryPath).toBe('/myfiles?x=1');
  });

  it('explains any other navigation error', () => {
    expect(navigationErrorMessage(navigationErrorState('error', '/contacts'))?.title).toBe(
      'Something went wrong opening that page',
    );
  });

  it('ignores other state and paths that would leave the app', () => {
    expect(navigationErrorMessage(null)).toBeNull();
    expect(navigationErrorMessage({ usr: 1 })).toBeNull();
    expect(navigationErrorMessage({ navigationError: { kind: 'load', from: '//evil.test/x' } })).toBeNull();
    expect(
      navigationErrorMessage({ navigationError: { kind: 'load', from: 'https://evil.test' } }),
    ).toBeNull();
    expect(navigationErrorMessage({ navigationError: { kind: 'other', from: '/new' } })).toBeNull();
  });
});
