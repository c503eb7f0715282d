/** A header menu's closing, as people expect of one: Escape, or a click outside `within`, closes it while it is open. */
import { type RefObject, useEffect } from 'react';

export function useMenuDismissal(open: boolean, within: RefObject<HTMLElement | null>, onClose: () => void): void {
  useEffect(() => {
    if (!open) return undefined;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (event.target instanceof Node && !within.current?.contains(event.target)) onClose();
    };
    document.addEventListener('keydown', closeOnEscape);
    document.addEventListener('mousedown', closeOnOutsideClick);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      document.removeEventListener('mousedown', closeOnOutsideClick);
    };
  }, [open, within, onClose]);
}
