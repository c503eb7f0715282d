/**
 * A Bootstrap button as plain markup. The first view uses Bootstrap's classes directly, so the
 * react-bootstrap runtime (and its transition libraries) loads only with the dialogs.
 */
import type { ButtonHTMLAttributes, Ref } from 'react';

type ButtonVariant = 'primary' | 'success' | 'light' | 'outline-primary' | 'outline-secondary' | 'outline-success' | 'outline-danger';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  readonly variant?: ButtonVariant;
  readonly size?: 'sm' | 'lg';
  readonly ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant = 'primary', size, className, type = 'button', ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, size ? `btn-${size}` : '', className ?? ''].filter(Boolean).join(' ');
  return <button type={type} className={classes} {...rest} />;
}
