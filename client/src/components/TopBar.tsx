//! The top bar: language selector and the company's logo and name on the left, title, whatever
//! actions the screen passes and the session's (Log out, on every signed-in screen).

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyBrand } from './company/CompanyBrand';
import { LanguageSelector } from './LanguageSelector';
import { useSessionActions } from '../lib/sessionActions';
import { useTopBarHeight } from '../lib/topBarHeight';

export function TopBar({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const session = useSessionActions();
  const topBar = useTopBarHeight();
  return (
    <header className="topbar" ref={topBar}>
      <div className="topbar-left">
        <LanguageSelector />
        <CompanyBrand />
      </div>
      <div className="topbar-title">
        <span className="brand-mark" aria-hidden="true" />
        {t('app.title')}
      </div>
      <div className="topbar-right">
        {children}
        {session}
      </div>
    </header>
  );
}
