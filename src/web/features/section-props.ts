/**
 * What the app shell hands every data section: its info as last loaded (null when it could not
 * be loaded), a way to replace it with what a call answered, and a way to report a failed call
 * (the shell shows "Whoops!"). Features never import each other.
 */
export interface SectionProps<Info> {
  readonly info: Info | null;
  readonly onChange: (info: Info) => void;
  readonly onError: (error: unknown) => void;
}
