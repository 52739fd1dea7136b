// Runs in the page: tests/support/overflow.ts reads this file and evaluates it there (a plain
// script, so the test's TypeScript, which has no DOM types, never sees it). Its value is the
// `Overflow` that file describes.
(async () => {
  // Fonts in place and a frame drawn: the answer is what is on the screen.
  await document.fonts.ready;
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const describe = (element) => {
    const testId = element.getAttribute('data-testid');
    const classes = (element.getAttribute('class') ?? '').split(/\s+/).slice(0, 6).join('.');
    const text = (element.textContent ?? '').trim().slice(0, 40);
    const { left, right, width } = element.getBoundingClientRect();
    return `<${element.tagName.toLowerCase()}${testId ? ` data-testid=${testId}` : ''}${
      classes ? ` .${classes}` : ''
    }> [${Math.round(left)}..${Math.round(right)}, ${Math.round(width)} px] "${text}"`;
  };
  const clipsSideways = (element) => {
    const style = getComputedStyle(element);
    return style.overflowX !== 'visible' || style.display === 'none';
  };
  /** How narrow `element` can get: its width while set to `min-content` for a moment. */
  const minContent = (element) => {
    const style = element.style;
    const before = style.width;
    style.width = 'min-content';
    const width = element.getBoundingClientRect().width;
    style.width = before;
    return width;
  };
  /**
   * What makes `element` that wide: down the child that needs the most room, while the child
   * needs (nearly) all of it; the element where that stops holds the long word or fixed width.
   */
  const widestPart = (element) => {
    let current = element;
    let needed = minContent(current);
    for (;;) {
      const style = getComputedStyle(current);
      const frame =
        Number.parseFloat(style.paddingLeft) +
        Number.parseFloat(style.paddingRight) +
        Number.parseFloat(style.borderLeftWidth) +
        Number.parseFloat(style.borderRightWidth);
      const widest = [...current.children]
        .filter((child) => !/^(absolute|fixed)$/.test(getComputedStyle(child).position))
        .map((child) => ({ child, width: minContent(child) }))
        .sort((a, b) => b.width - a.width)[0];
      if (!widest || widest.width < needed - frame - 1) break;
      current = widest.child;
      needed = widest.width;
    }
    return `${describe(current)}, needs ${Math.round(needed)} px`;
  };
  /** Elements outside [left, right], the outermost of each sticking-out subtree only. */
  const outside = (root, left, right, within) => {
    const found = [];
    const visit = (element) => {
      const box = element.getBoundingClientRect();
      // A screen-reader box (`sr-only`: 1 × 1 px, clipped, -1 px margin) shows nothing.
      if (box.width <= 1 && box.height <= 1 && clipsSideways(element)) return;
      const measured = box.width > 0 || box.height > 0;
      if (measured && (box.right > right + 0.5 || box.left < left - 0.5)) {
        const parent = element.parentElement;
        const tracks = parent ? getComputedStyle(parent).gridTemplateColumns : 'none';
        found.push(
          `${describe(element)}\n    because of ${widestPart(element)}${
            parent && tracks !== 'none' ? `\n    in a grid of columns ${tracks}` : ''
          }`,
        );
        return;
      }
      if (element !== within && element !== root && clipsSideways(element)) return;
      for (const child of element.children) visit(child);
    };
    visit(root);
    return found;
  };

  const width = window.innerWidth;
  const dialogs = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].map(
    (dialog) => {
      const box = dialog.getBoundingClientRect();
      const offenders = [...dialog.children].flatMap((child) =>
        outside(child, box.left, box.right, null),
      );
      if (dialog.scrollWidth > dialog.clientWidth + 1) {
        offenders.unshift(
          `the dialog scrolls sideways: ${dialog.scrollWidth} px of content in ${dialog.clientWidth} px`,
        );
      }
      const title = dialog.querySelector('h1, h2, h3')?.textContent ?? dialog.id;
      return { dialog: title, offenders };
    },
  );
  return {
    page: document.documentElement.scrollWidth - width,
    pageOffenders: outside(document.body, 0, width, document.body),
    dialogs: dialogs.filter((entry) => entry.offenders.length > 0),
  };
})();
