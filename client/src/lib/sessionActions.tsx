//! What every signed-in screen's top bar offers for the session (Log out, issue 22): provided once
//! at the app layer by the auth feature, so the shared top bar and device pages need not import it.

import { createContext, useContext, type ReactNode } from 'react';

export const SessionActionsContext = createContext<ReactNode>(null);

/** The session's actions (the Log out button), or nothing outside a signed-in session. */
export const useSessionActions = (): ReactNode => useContext(SessionActionsContext);
