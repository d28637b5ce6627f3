export * from './xml';
export * from './images';
export { checkSvg } from './svg-safety';
