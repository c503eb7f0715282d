/** A warning is not told by colour alone: this sign goes with its words. */
export function WarningIcon({ size = 28 }: { readonly size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false" className="flex-shrink-0">
      <path d="M12 2 1 21h22L12 2Z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <path d="M12 9v5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <circle cx="12" cy="17.5" r="1.2" fill="currentColor" />
    </svg>
  );
}
