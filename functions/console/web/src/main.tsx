import { render } from 'preact';
import { App } from './app';
import './styles.css';

const root = document.getElementById('app')!;
// The page's own "Loading…" stands until the app renders in its place.
root.textContent = '';
render(<App />, root);
