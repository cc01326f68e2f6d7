/** The part of @lhncbc/ucum-lhc (which ships no types) the units test uses. */
declare module '@lhncbc/ucum-lhc' {
  interface Conversion {
    status: 'succeeded' | 'failed' | 'error';
    toVal: number;
    msg: string[];
  }
  const ucum: {
    UcumLhcUtils: {
      getInstance(): {
        convertUnitTo(
          from: string,
          value: number,
          to: string,
          options?: { molecularWeight?: number },
        ): Conversion;
      };
    };
  };
  export default ucum;
}
