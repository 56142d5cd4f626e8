/**
 * Slice `link` (spec section 3): redirect_link (the full personal link the patient opened) and link_id. The link id
 * is also written to local storage and to the `link_id` cookie (src/lib/link-id.ts).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface LinkState {
  redirect_link: string;
  link_id: string;
}

export const initialLinkState: LinkState = { redirect_link: '', link_id: '' };

const linkSlice = createSlice({
  name: 'link',
  initialState: initialLinkState,
  reducers: {
    setLink(state, action: PayloadAction<{ link_id: string; redirect_link?: string }>) {
      state.link_id = action.payload.link_id;
      state.redirect_link = action.payload.redirect_link ?? state.redirect_link;
    },
    resetLink: () => initialLinkState,
  },
});

export const { setLink, resetLink } = linkSlice.actions;
export default linkSlice.reducer;
