import React, { useState } from "react";
import type { ReactNode } from "react";

/** ButtonProps are the props of Button. */
export interface ButtonProps {
  label: string;
  onClick?: (count: number) => void;
  children?: ReactNode;
}

type Theme = "light" | "dark";

const DEFAULT_THEME: Theme = "light";

/** Button is a clickable element. */
export function Button({ label, onClick }: ButtonProps): JSX.Element {
  const [count, setCount] = useState<number>(0);
  const handle = () => {
    setCount(count + 1);
    onClick?.(count);
  };
  return (
    <button className={DEFAULT_THEME} onClick={handle}>
      {label}
    </button>
  );
}

/** Größe shows a size. */
export const Größe = ({ n }: { n: number }) => <Button label={String(n)} />;

/** Panel is a class component. */
export default class Panel extends React.Component<ButtonProps, { open: boolean }> {
  state = { open: false };
  private toggle = (): void => this.setState({ open: !this.state.open });

  render(): ReactNode {
    return (
      <div>
        <Button label="toggle" onClick={this.toggle} />
        <Größe n={2} />
        {this.props.children}
      </div>
    );
  }
}
