import './styles.css';

/**
 * The first script of every page, kept tiny. A prerendered page (the home page) paints first and
 * the app loads right after; any other page starts the app at once.
 */
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const prerendered = root.firstElementChild !== null;
const start = () => {
  void import('./app/boot.tsx').then(({ boot }) => boot(root, prerendered));
};
if (prerendered) requestAnimationFrame(() => setTimeout(start, 0));
else start();
