/**
 * The UI preview builds class names from colour and size names (`btn-${colour}`), which Tailwind
 * cannot see when it scans the sources. Spelled out here so it generates them.
 */
export const DEMO_CLASSES = [
  'alert-primary alert-secondary alert-accent alert-info alert-success alert-warning alert-error',
  'badge-primary badge-secondary badge-accent badge-info badge-success badge-warning badge-error',
  'btn-primary btn-secondary btn-accent btn-info btn-success btn-warning btn-error',
  'checkbox-primary checkbox-secondary checkbox-accent checkbox-info checkbox-success checkbox-warning checkbox-error',
  'file-input-primary file-input-secondary file-input-accent file-input-info file-input-success file-input-warning file-input-error',
  'input-primary input-secondary input-accent input-info input-success input-warning input-error',
  'radio-primary radio-secondary radio-accent radio-info radio-success radio-warning radio-error',
  'range-primary range-secondary range-accent range-info range-success range-warning range-error',
  'select-primary select-secondary select-accent select-info select-success select-warning select-error',
  'textarea-primary textarea-secondary textarea-accent textarea-info textarea-success textarea-warning textarea-error',
  'toggle-primary toggle-secondary toggle-accent toggle-info toggle-success toggle-warning toggle-error',
  'btn-xs btn-sm btn-md btn-lg btn-xl',
  'input-xs input-sm input-md input-lg input-xl',
  'tooltip-top tooltip-bottom tooltip-left tooltip-right',
] as const;
