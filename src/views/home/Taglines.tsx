import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { taglinesMachine } from '../../../machines/taglines/taglines.machine';
import { selectTagline, selectTaglineIndex } from '../../../machines/taglines/taglines.selectors';
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
  const [first] = useState(index);
  const [rotated, setRotated] = useState(false);
  if (!rotated && index !== first) setRotated(true);
  return (
    <p className="taglines" data-index={index}>
      <span key={index} className={rotated ? 'taglines-text taglines-text--in' : 'taglines-text'}>
        {text}
      </span>
    </p>
  );
}
