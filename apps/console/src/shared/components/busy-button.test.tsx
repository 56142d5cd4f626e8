import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusyButton } from './busy-button';

afterEach(cleanup);

function Form(props: { busy: boolean; onSubmit: () => void; onClick?: () => void }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <label>
        Name <input name="name" />
      </label>
      <BusyButton type="submit" className="btn btn-primary" busy={props.busy} onClick={props.onClick}>
        Save
      </BusyButton>
    </form>
  );
}

describe('BusyButton', () => {
  it('while busy: announced as unavailable, still focusable, and no press submits', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const onClick = vi.fn();
    render(<Form busy onSubmit={onSubmit} onClick={onClick} />);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveAttribute('aria-disabled', 'true');
    expect(save).not.toBeDisabled();
    expect(save).toHaveClass('btn', 'btn-primary', 'disabled');

    await user.click(save);
    expect(save).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.type(screen.getByLabelText('Name'), 'Ana{Enter}');
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('when not busy it is a plain button of its type: a click, or Enter in a field, submits', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const onClick = vi.fn();
    render(<Form busy={false} onSubmit={onSubmit} onClick={onClick} />);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).not.toHaveAttribute('aria-disabled');
    expect(save).toHaveAttribute('class', 'btn btn-primary');
    await user.click(save);
    await user.type(screen.getByLabelText('Name'), 'Ana{Enter}');
    expect(onClick).toHaveBeenCalledTimes(2);
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it('is type="button" unless it says otherwise, so it never submits a form by accident', () => {
    render(<BusyButton busy={false}>Copy</BusyButton>);
    expect(screen.getByRole('button', { name: 'Copy' })).toHaveAttribute('type', 'button');
  });
});
