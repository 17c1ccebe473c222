import { useActorRef, useSelector } from '@xstate/react';
import { taglinesMachine } from '../../../machines/taglines/taglines.machine';
import {
  selectTagline,
  selectTaglineIndex,
  selectTaglineSlidesIn,
} from '../../../machines/taglines/taglines.selectors';
import './taglines.css';

/**
 * The landing subheader cycling through five taglines every 3 s. The rotation actor belongs to
 * this part of the page: it starts when the subheader mounts and stops with it. The first tagline
 * is there with the page; each next one slides in.
 */
export function Taglines() {
  const taglines = useActorRef(taglinesMachine);
  const index = useSelector(taglines, selectTaglineIndex);
  const text = useSelector(taglines, selectTagline);
  const slidesIn = useSelector(taglines, selectTaglineSlidesIn);
  return (
    <p className="taglines" data-index={index}>
      <span key={index} className={slidesIn ? 'taglines-text taglines-text--in' : 'taglines-text'}>
        {text}
      </span>
    </p>
  );
}
