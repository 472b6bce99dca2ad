//! A labelled one-line text input (the `.field` look); `required` adds the mark to the label.

import type { HTMLInputTypeAttribute } from 'react';

export function TextField({
  label,
  name,
  value,
  onChange,
  type = 'text',
  required,
  disabled,
  autoComplete = 'off',
  inputMode,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: HTMLInputTypeAttribute;
  required?: boolean;
  disabled?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
}) {
  return (
    <label className="field">
      <span>{required ? `${label} *` : label}</span>
      <input
        type={type}
        name={name}
        value={value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
