//! The frame of the admin, branding and settings pages: top bar, back button to /devices, title.

import type { ReactNode } from 'react';
import { BackButton } from './BackButton';
import { TopBar } from './TopBar';
import './forms.css';

export function FormPage({ title, subtitle, narrow, children }: { title: string; subtitle?: string; narrow?: boolean; children: ReactNode }) {
  return (
    <div className="page">
      <TopBar />
      <main className={narrow ? 'content form-page narrow' : 'content form-page'}>
        <BackButton />
        <div className="page-heading">
          <h1>{title}</h1>
          {subtitle ? <span className="muted">{subtitle}</span> : null}
        </div>
        {children}
      </main>
    </div>
  );
}
