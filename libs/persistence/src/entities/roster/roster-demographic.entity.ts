import { Column, Entity, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';

/** OneRoster demographics (reference §3.7); `sourced_id` is the described user's sourcedId. */
@Entity({ name: 'roster_demographics' })
@Unique('UQ_roster_demographics_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
export class RosterDemographicEntity extends RosterRecord {
  @Column({ type: 'date', name: 'birth_date', nullable: true })
  birthDate: string | null;

  @Column({ type: 'text', nullable: true })
  sex: 'male' | 'female' | null;

  @Column({ type: 'boolean', name: 'american_indian_or_alaska_native', nullable: true })
  americanIndianOrAlaskaNative: boolean | null;

  @Column({ type: 'boolean', nullable: true })
  asian: boolean | null;

  @Column({ type: 'boolean', name: 'black_or_african_american', nullable: true })
  blackOrAfricanAmerican: boolean | null;

  @Column({ type: 'boolean', name: 'native_hawaiian_or_other_pacific_islander', nullable: true })
  nativeHawaiianOrOtherPacificIslander: boolean | null;

  @Column({ type: 'boolean', nullable: true })
  white: boolean | null;

  @Column({ type: 'boolean', name: 'demographic_race_two_or_more_races', nullable: true })
  demographicRaceTwoOrMoreRaces: boolean | null;

  @Column({ type: 'boolean', name: 'hispanic_or_latino_ethnicity', nullable: true })
  hispanicOrLatinoEthnicity: boolean | null;

  @Column({ type: 'text', name: 'country_of_birth_code', nullable: true })
  countryOfBirthCode: string | null;

  @Column({ type: 'text', name: 'state_of_birth_abbreviation', nullable: true })
  stateOfBirthAbbreviation: string | null;

  @Column({ type: 'text', name: 'city_of_birth', nullable: true })
  cityOfBirth: string | null;

  @Column({ type: 'text', name: 'public_school_residence_status', nullable: true })
  publicSchoolResidenceStatus: string | null;
}
