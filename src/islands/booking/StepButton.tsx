/**
 * A submit button of a plain form that, with JavaScript, acts in place instead of posting: without
 * it the form posts its `intent` to the page, which answers as the island would.
 */
import type { ReactNode } from 'react';

interface Props {
  intent: string;
  className: string;
  onPress: () => void;
  disabled?: boolean;
  children: ReactNode;
}

export default function StepButton({ intent, className, onPress, disabled, children }: Props) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      className={className}
      disabled={disabled}
      onClick={(e) => {
        e.preventDefault();
        onPress();
      }}
    >
      {children}
    </button>
  );
}
