//! A posture reading's line as the ward tile and the device page's clock show it: the posture's
//! name, its confidence muted, and "uncertain" where the hub is not certain of it. The wording is
//! `lib/postureLine`'s; the element around it (its title, its fit) is the caller's.

import type { PostureLine } from '../lib/postureLine';

export function PostureText({ line, uncertainTestId }: { line: PostureLine; uncertainTestId?: string }) {
  return (
    <>
      {line.name}
      {line.confidence ? <span className="muted"> · {line.confidence}</span> : null}
      {line.uncertain ? (
        <span className="posture-uncertain" data-testid={uncertainTestId}>
          {' · '}
          {line.uncertain}
        </span>
      ) : null}
    </>
  );
}
