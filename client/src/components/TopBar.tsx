//! The top bar: language selector and the company's logo and name on the left, title, and whatever
//! actions the screen passes.

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyBrand } from './company/CompanyBrand';
import { LanguageSelector } from './LanguageSelector';

export function TopBar({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="topbar">
      <div className="topbar-left">
        <LanguageSelector />
        <CompanyBrand />
      </div>
      <div className="topbar-title">
        <span className="brand-mark" aria-hidden="true" />
        {t('app.title')}
      </div>
      <div className="topbar-right">{children}</div>
    </header>
  );
}
